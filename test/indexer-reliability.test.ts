import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceCli } from 'weft/cli/test-support/source-cli.js';
import { silentLogger } from 'weft/common/logger.js';
import { type Db, openDb } from 'weft/store/db.js';
import { digest } from 'weft/store/digest.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { createRng } from 'weft-devnet/random.js';
import { freePort } from './api-process-support.js';
import { configFor, reached, startIndexer, testDevnet, waitFor } from './indexer-support.js';

/**
 * Crash safety: a `weft indexer` process killed with SIGKILL again and again during its backfill, and
 * restarted each time, ends with a store identical (digest) to that of an uninterrupted run.
 */

const HEIGHT = 160;
/** Kills per run: PGlite's are fewer, each of its starts and looks opening the store anew (seconds). */
const KILLS = { postgres: 4, pglite: 3 };
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

type Progress = Record<string, number>;

/** Where a killed indexer keeps its store, and how the test reads how far it got. */
interface KilledStore {
  env: Record<string, string>;
  /** While the process runs. */
  running(): Promise<Progress>;
  /** Once it has exited. */
  stored(): Promise<Progress>;
  /** The store, for the digest. */
  open(): Promise<Db>;
}

async function readProgress(db: Db, table: string): Promise<Progress> {
  try {
    const rows = await db.query<{ name: string; height: string }>(`SELECT name, height FROM ${table}`);
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.height)]));
  } catch {
    return {};
  }
}

/** Kills `weft indexer` over `store` again and again during its backfill, lets it finish, and compares. */
async function killAndRestart(store: KilledStore, reference: Db, kills: number): Promise<void> {
  const chain = devnet.chains[0]!;
  const env = {
    ...process.env,
    CHAIN_ID: chain.chain.info.chainId,
    VM_TYPE: 'evm',
    RPC_URL: chain.urls.rpc,
    REST_URL: chain.urls.rest,
    JSON_RPC_URL: chain.urls.jsonRpc!,
    DB_SCHEMA: SCHEMA,
    BATCH_SIZE: '4',
    MAX_CONCURRENT_REQUESTS: '4',
    POLL_INTERVAL: '200ms',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'warn',
    ...store.env,
  };
  const output: string[] = [];
  const start = (): ChildProcess => {
    const child = spawn(process.execPath, sourceCli(['indexer']), {
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
  for (let i = 0; i < kills; i += 1) {
    const before = (await store.stored()).block ?? 0;
    const child = start();
    // Kill somewhere in the next few batches: mid-fetch, mid-write, or between writes.
    const target = before + 6 + Math.floor(rng.next() * 14);
    await waitFor(
      `progress past ${target}`,
      async () => ((await store.running()).block ?? 0) >= target,
      60_000,
    );
    child.kill('SIGKILL');
    await once(child, 'exit');
    killedAt.push((await store.stored()).block ?? 0);
  }
  expect(killedAt[killedAt.length - 1]).toBeLessThan(HEIGHT);

  // Stopped with SIGTERM mid-backfill, it lets the batch being written commit, then closes the store.
  const stopped = start();
  const target = Math.min(killedAt[killedAt.length - 1]! + 6, HEIGHT);
  await waitFor(
    `progress past ${target}`,
    async () => ((await store.running()).block ?? 0) >= target,
    60_000,
  );
  stopped.kill('SIGTERM');
  const [stoppedCode] = await once(stopped, 'exit');
  expect(stoppedCode, output.join('')).toBe(0);
  expect((await store.stored()).block).toBeGreaterThanOrEqual(target);

  const last = start();
  await waitFor(
    'the last run to finish',
    async () => {
      const p = await store.running();
      return p.block === HEIGHT && p.internal_tx === HEIGHT && p.rich_list === HEIGHT;
    },
    60_000,
  );
  last.kill('SIGTERM');
  const [code] = await once(last, 'exit');
  expect(code, output.join('')).toBe(0);
  expect(await store.stored()).toEqual({ block: HEIGHT, internal_tx: HEIGHT, rich_list: HEIGHT });

  // The same chain, indexed in one go by an in-process indexer.
  const config = configFor(chain, { batchSize: 25 });
  const running = startIndexer(config, reference, silentLogger());
  await waitFor('the reference run', () => reached(running, config, HEIGHT));
  await running.stop();

  const killed = await store.open();
  try {
    expect(await digest(killed)).toEqual(await digest(reference));
  } finally {
    await killed.close();
  }
}

describe('indexer process killed during its backfill', () => {
  const testDb = useTestDb('postgres');

  it(`gives the same store after ${KILLS.postgres} SIGKILLs as an uninterrupted run`, async () => {
    const root = testDb.root();
    const progress = () => readProgress(root, `${SCHEMA}.progress`);
    await killAndRestart(
      {
        env: { DB_DSN: testDb.dsn()! },
        running: progress,
        stored: progress,
        open: () => root.withSchema(SCHEMA),
      },
      await testDb.fresh(),
      KILLS.postgres,
    );
  });
});

describe('indexer process on PGlite killed during its backfill', () => {
  const testDb = useTestDb('pglite');

  // Each start opens the store anew (seconds on PGlite), and so does each look at how far it got.
  it(`gives the same store after ${KILLS.pglite} SIGKILLs as an uninterrupted run`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'weft-killed-'));
    const port = await freePort();
    const open = () => openDb({ dataDir, schema: SCHEMA });
    try {
      await killAndRestart(
        {
          env: { DATA_DIR: dataDir, METRICS_ENABLED: 'true', METRICS_PORT: String(port) },
          // The process holds the store: its metrics say how far it is.
          running: () => metricsProgress(port),
          async stored() {
            const db = await open();
            try {
              return await readProgress(db, 'progress');
            } finally {
              await db.close();
            }
          },
          open,
        },
        await testDb.fresh(),
        KILLS.pglite,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

/** The heights `weft indexer` reports on its metrics endpoint, named as in its progress table. */
async function metricsProgress(port: number): Promise<Progress> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
  const progress: Progress = {};
  const block = /^weft_indexer_height (\d+)$/m.exec(text);
  if (block) progress.block = Number(block[1]);
  for (const [, name, height] of text.matchAll(
    /^weft_indexer_extension_height\{extension="(\w+)"\} (\d+)$/gm,
  )) {
    progress[name!] = Number(height);
  }
  return progress;
}
