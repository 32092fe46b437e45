import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../store/db.js';
import { NODE_FLAGS } from './node-flags.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-dev-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `weft dev` as `npm start` runs it, through the CLI entry point. */
const cli = (args: string[]) => [...NODE_FLAGS, '--import', 'tsx', 'src/cli/main.ts', 'dev', ...args];

interface Rollup {
  chainId: string;
  vm: string;
  rpc: string;
  api: string;
}

/** The line `weft dev` prints per rollup once its indexer and API are up. */
const LINE =
  /^(\S+)\s+vm=(\S+)\s+height=\d+ rpc=(\S+) rest=(\S+)(?: json-rpc=(\S+))? api=(http:\/\/127\.0\.0\.1:\d+)$/;

async function json(url: string): Promise<any> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last error: ${String(last)})`);
    await sleep(200);
  }
}

describe('weft dev (CLI)', () => {
  // A store of the former layout (one database, a schema per chain), which weft dev replaces at start.
  beforeAll(async () => {
    const former = await openDb({ dataDir: join(dir, 'store') });
    await (await former.withSchema('chain_weft_evm_1')).exec('CREATE TABLE progress (name text)');
    await former.close();
  });

  it('stops at start with one line naming an invalid setting', async () => {
    const result = await promisify(execFile)(process.execPath, cli(['--api-port-base', 'soon'])).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      'weft: invalid configuration: --api-port-base: "soon" is not an integer',
    );
  });

  it('runs the devnet, an indexer and an API per rollup on a store each, and stops cleanly on SIGTERM', async () => {
    const halt = 8;
    const dataDir = join(dir, 'store');
    const child = spawn(
      process.execPath,
      cli([
        '--vms',
        'evm,move',
        '--seed',
        'dev-test',
        '--block-time',
        '200ms',
        '--txs-per-block',
        '4',
        '--halt-height',
        String(halt),
        '--port-base',
        '0',
        '--api-port-base',
        '0',
        '--data-dir',
        dataDir,
        '--state-dir',
        join(dir, 'chains'),
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );

    try {
      const rollups = await until(
        'a line per rollup',
        async () => {
          if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
          const found = stdout
            .split('\n')
            .map((line) => LINE.exec(line))
            .filter((m) => m !== null)
            .map((m): Rollup => ({ chainId: m[1]!, vm: m[2]!, rpc: m[3]!, api: m[6]! }));
          return found.length === 2 ? found : undefined;
        },
        // Generous: on a busy machine the stores' start (PGlite's initdb, a thread each) takes a while.
        90_000,
      );
      expect(rollups.map((r) => [r.chainId, r.vm])).toEqual([
        ['weft-evm-1', 'evm'],
        ['weft-move-1', 'move'],
      ]);
      expect(new Set(rollups.map((r) => r.api)).size).toBe(2);

      for (const rollup of rollups) {
        // The devnet halts at `halt`; the index is complete once the API reports it (and, on EVM, the
        // internal txs and the rich list with it).
        const status = await until(
          `${rollup.chainId} indexed to ${halt}`,
          async () => {
            const s = await json(`${rollup.api}/status`);
            const done =
              s.height === halt &&
              (rollup.vm !== 'evm' || (s.internal_tx_height === halt && s.rich_list_height === halt));
            return done ? s : undefined;
          },
          60_000,
        );
        expect(status.chain_id).toBe(rollup.chainId);

        // Every tx the node holds up to the halt height, counted from its own CometBFT RPC.
        let produced = 0;
        for (let height = 1; height <= halt; height += 1) {
          const block = await json(`${rollup.rpc}/block?height=${height}`);
          produced += block.result.block.data.txs.length;
        }
        expect(produced).toBeGreaterThan(0);
        const page = await json(`${rollup.api}/indexer/tx/v1/txs?pagination.limit=1`);
        expect(page.pagination.total).toBe(String(produced));
        expect(page.txs).toHaveLength(1);
      }
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
    }

    child.kill('SIGTERM');
    const exit = await Promise.race([exited, sleep(15_000).then(() => 'timeout' as const)]);
    expect(exit, stderr).toEqual({ code: 0, signal: null });
    // Nothing failed on the way down (an indexer writing to a closed store, say).
    expect(stderr).not.toMatch(/^(error|fatal)/m);
    expect(stderr.match(/^warn .*former layout.*$/gm)).toHaveLength(1);

    // A store per chain, closed cleanly: each opens again and holds its chain's index.
    for (const folder of ['chain_weft_evm_1', 'chain_weft_move_1']) {
      const db = await openDb({ dataDir: join(dataDir, folder) });
      try {
        const [row] = await db.query<{ height: string }>(`SELECT height FROM progress WHERE name = 'block'`);
        expect(Number(row?.height), folder).toBe(halt);
      } finally {
        await db.close();
      }
    }
  }, 180_000);
});
