import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/common/logger.js';
import { createRng } from '../src/common/random.js';
import type { Devnet } from '../src/devnet/devnet.js';
import { digest } from '../src/store/digest.js';
import { useTestDb } from '../src/store/test-support/backends.js';
import { configFor, reached, startIndexer, testDevnet, waitFor } from './indexer-support.js';

/**
 * Crash safety: a `weft indexer` process killed with SIGKILL again and again during its backfill, and
 * restarted each time, ends with a store identical (digest) to that of an uninterrupted run.
 */

const HEIGHT = 160;
const KILLS = 6;
const SCHEMA = 'killed';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

let devnet: Devnet;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'reliability',
    vms: ['evm'],
    accounts: 5,
    txsPerBlock: 4,
    haltHeight: HEIGHT,
  });
  await devnet.fastForward(HEIGHT);
});

afterAll(() => devnet.close());

describe('indexer process killed during its backfill', () => {
  const testDb = useTestDb('postgres');

  it(`gives the same store after ${KILLS} SIGKILLs as an uninterrupted run`, async () => {
    const chain = devnet.chains[0]!;
    const dsn = testDb.dsn()!;
    const root = testDb.root();
    const env = {
      ...process.env,
      CHAIN_ID: chain.chain.info.chainId,
      VM_TYPE: 'evm',
      RPC_URL: chain.urls.rpc,
      REST_URL: chain.urls.rest,
      JSON_RPC_URL: chain.urls.jsonRpc!,
      DB_DSN: dsn,
      DB_SCHEMA: SCHEMA,
      BATCH_SIZE: '4',
      MAX_CONCURRENT_REQUESTS: '4',
      POLL_INTERVAL: '200ms',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
    };
    const progress = async () => {
      try {
        const rows = await root.query<{ name: string; height: string }>(
          `SELECT name, height FROM ${SCHEMA}.progress`,
        );
        return Object.fromEntries(rows.map((r) => [r.name, Number(r.height)])) as Record<string, number>;
      } catch {
        return {} as Record<string, number>;
      }
    };
    const output: string[] = [];
    const start = (): ChildProcess => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'indexer'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
      child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
      return child;
    };

    const rng = createRng('kills');
    const killedAt: number[] = [];
    for (let i = 0; i < KILLS; i += 1) {
      const before = (await progress()).block ?? 0;
      const child = start();
      // Kill somewhere in the next few batches: mid-fetch, mid-write, or between writes.
      const target = before + 6 + Math.floor(rng.next() * 14);
      await waitFor(`progress past ${target}`, async () => ((await progress()).block ?? 0) >= target, 60_000);
      child.kill('SIGKILL');
      await once(child, 'exit');
      killedAt.push((await progress()).block ?? 0);
    }
    expect(killedAt[killedAt.length - 1]).toBeLessThan(HEIGHT);

    const last = start();
    await waitFor(
      'the last run to finish',
      async () => {
        const p = await progress();
        return p.block === HEIGHT && p.internal_tx === HEIGHT && p.rich_list === HEIGHT;
      },
      60_000,
    );
    last.kill('SIGTERM');
    const [code] = await once(last, 'exit');
    expect(code, output.join('')).toBe(0);

    // The same chain, indexed in one go by an in-process indexer.
    const reference = await testDb.fresh();
    const config = configFor(chain, { batchSize: 25 });
    const running = startIndexer(config, reference, silentLogger());
    await waitFor('the reference run', () => reached(running, config, HEIGHT));
    await running.stop();

    const killed = await root.withSchema(SCHEMA);
    try {
      expect(await digest(killed)).toEqual(await digest(reference));
    } finally {
      await killed.close();
    }
  });
});
