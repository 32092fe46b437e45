import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexChain, producedDevnet } from '../src/api/test-support/indexed-devnet.js';
import { silentLogger } from '../src/common/logger.js';
import type { Devnet, DevnetChain } from '../src/devnet/devnet.js';
import { loadIndexerConfig } from '../src/indexer/config.js';
import { createIndexer } from '../src/indexer/indexer.js';
import { readManifest, writeManifest } from '../src/record/format.js';
import { record } from '../src/record/recorder.js';
import { type Replay, startReplay } from '../src/record/replay.js';
import type { Db } from '../src/store/db.js';
import { digest } from '../src/store/digest.js';
import { testBackends, useTestDb } from '../src/store/test-support/backends.js';

// `weft record` of a devnet's heights, `weft replay` of the recording, and `weft indexer` on the replay:
// the store must be the one indexing the devnet itself gives (every table's digest), blocks, EVM receipts,
// internal txs, NFTs and the rich list included.

const BLOCKS = 12;
let devnet: Devnet;
let chain: DevnetChain;
const dir = mkdtempSync(join(tmpdir(), 'weft-record-'));
const out = join(dir, 'evm');

function configOf(urls: { rpc: string; rest: string; jsonRpc?: string }, env: Record<string, string> = {}) {
  return loadIndexerConfig({
    argv: [],
    env: {
      CHAIN_ID: chain.chain.info.chainId,
      VM_TYPE: chain.vm,
      RPC_URL: urls.rpc,
      REST_URL: urls.rest,
      JSON_RPC_URL: urls.jsonRpc ?? '',
      POLL_INTERVAL: '50',
      ...env,
    },
  });
}

/** Indexes the replay to its head (blocks, internal txs, rich list) into `db`. */
async function indexReplay(replay: Replay, db: Db): Promise<void> {
  const indexer = createIndexer(configOf(replay.urls), { logger: silentLogger(), db });
  const stop = new AbortController();
  const running = indexer.run(stop.signal);
  const deadline = Date.now() + 90_000;
  try {
    for (;;) {
      const s = indexer.status();
      if (s.written >= BLOCKS && (s.internalTxHeight ?? 0) >= BLOCKS && (s.richListHeight ?? 0) >= BLOCKS)
        return;
      if (Date.now() > deadline)
        throw new Error(`the replay was not indexed to ${BLOCKS}: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    stop.abort();
    await running.catch(() => undefined);
  }
}

beforeAll(async () => {
  ({ devnet, chain } = await producedDevnet('evm', BLOCKS, 'record-replay'));
  const urls = { rpc: chain.urls.rpc, rest: chain.urls.rest, jsonRpc: chain.urls.jsonRpc! };
  const config = configOf(urls);
  await record({ config, from: 1, to: BLOCKS, out, logger: silentLogger() });
  // Interrupted after 5 heights, then resumed: it goes on after its last whole height.
  const partial = join(dir, 'partial');
  expect((await record({ config, from: 1, to: 5, out: partial, logger: silentLogger() })).heights).toBe(5);
  const resumed = await record({ config, from: 1, to: 8, out: partial, logger: silentLogger() });
  expect(resumed).toMatchObject({ heights: 8, resumedAt: 6 });
  expect(readManifest(partial)!.heights).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
}, 180_000);
afterAll(async () => {
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a recording', () => {
  it('holds every height, compressed, with its manifest', () => {
    const manifest = readManifest(out)!;
    expect(manifest).toMatchObject({
      format: 'weft-recording/1',
      chain_id: chain.chain.info.chainId,
      vm_type: 'evm',
      from: 1,
      to: BLOCKS,
      nodes: { rpc: [chain.urls.rpc], rest: [chain.urls.rest], json_rpc: [chain.urls.jsonRpc] },
    });
    expect(manifest.heights).toEqual(Array.from({ length: BLOCKS }, (_, i) => i + 1));
    expect(manifest.weft_version).toMatch(/^v\d/);
    expect(readdirSync(join(out, 'heights')).sort()).toEqual(
      manifest.heights.map((h) => `${h}.json.gz`).sort(),
    );
  });

  it('of a height the node no longer holds is an error naming the height', async () => {
    // A replay of the recording's heights 6… is a node whose earliest height is 6.
    const late = join(dir, 'late');
    cpSync(out, late, { recursive: true });
    const manifest = readManifest(late)!;
    for (const h of manifest.heights.filter((h) => h < 6)) rmSync(join(late, 'heights', `${h}.json.gz`));
    writeManifest(late, { ...manifest, heights: manifest.heights.filter((h) => h >= 6) });
    const replay = await startReplay({ dir: late, host: '127.0.0.1', portBase: 0, logger: silentLogger() });
    try {
      const config = configOf(replay.urls);
      await expect(
        record({ config, from: 2, to: 8, out: join(dir, 'from-2'), logger: silentLogger() }),
      ).rejects.toThrow(/height 2 is pruned .*its earliest height is 6/);
    } finally {
      await replay.close();
    }
  });
});

describe.each(await testBackends())('replayed and indexed (%s)', (backend) => {
  const testDb = useTestDb(backend);

  it('gives the store indexing the devnet gives', async () => {
    const direct = await testDb.fresh();
    await indexChain(chain, direct);
    const replay = await startReplay({ dir: out, host: '127.0.0.1', portBase: 0, logger: silentLogger() });
    try {
      const replayed = await testDb.fresh();
      await indexReplay(replay, replayed);
      expect(await digest(replayed)).toEqual(await digest(direct));
    } finally {
      await replay.close();
    }
  }, 180_000);

  it('answers a request it has no recording for with the node’s error, and counts it', async () => {
    const replay = await startReplay({ dir: out, host: '127.0.0.1', portBase: 0, logger: silentLogger() });
    try {
      const answer = await fetch(
        `${replay.urls.rest}/cosmos/bank/v1beta1/balances/init1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpqr5e3d`,
      );
      expect(answer.status).toBe(501);
      expect(await answer.json()).toMatchObject({ code: 12, details: [] });
      const future = await (await fetch(`${replay.urls.rpc}/block?height=${BLOCKS + 1}`)).json();
      expect(future.error.data).toBe(
        `height ${BLOCKS + 1} must be less than or equal to the current blockchain height ${BLOCKS}`,
      );
      expect(replay.unrecorded()).toBe(1);
    } finally {
      await replay.close();
    }
  });
});
