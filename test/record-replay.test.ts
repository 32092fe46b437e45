import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexChain, producedDevnet } from 'weft/api/test-support/indexed-devnet.js';
import { silentLogger } from 'weft/common/logger.js';
import { loadIndexerConfig } from 'weft/indexer/config.js';
import { createIndexer } from 'weft/indexer/indexer.js';
import {
  exchangeKey,
  readHeight,
  readLookups,
  readManifest,
  recordedHeights,
  writeManifest,
} from 'weft/record/format.js';
import { record } from 'weft/record/recorder.js';
import { type Replay, startReplay } from 'weft/record/replay.js';
import type { Db } from 'weft/store/db.js';
import { digest } from 'weft/store/digest.js';
import { testBackends, useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';

// `weft record` of a devnet's heights, `weft replay` of the recording, and `weft indexer` on the replay:
// the store must be the one indexing the devnet itself gives (every table's digest), blocks, EVM receipts,
// internal txs, NFTs and the rich list included.

const BLOCKS = 12;
let devnet: Devnet;
let chain: DevnetChain;
const dir = mkdtempSync(join(tmpdir(), 'weft-record-'));
const out = join(dir, 'evm');
const partial = join(dir, 'partial');

function configOf(
  urls: { rpc: string; rest: string; jsonRpc?: string },
  env: Record<string, string> = {},
  of: DevnetChain = chain,
) {
  return loadIndexerConfig({
    argv: [],
    env: {
      CHAIN_ID: of.chain.info.chainId,
      VM_TYPE: of.vm,
      BECH32_PREFIX: of.chain.info.bech32Prefix,
      RPC_URL: urls.rpc,
      REST_URL: urls.rest,
      JSON_RPC_URL: urls.jsonRpc ?? '',
      POLL_INTERVAL: '50',
      ...env,
    },
  });
}

/** The questions a recording answers (the keys a replay finds them by). */
function questionsOf(recording: string): Set<string> {
  const all = [
    ...readLookups(recording),
    ...recordedHeights(recording).flatMap((h) => readHeight(recording, h).exchanges),
  ];
  return new Set(all.map(exchangeKey));
}

/** Indexes the replay to its head `to` (blocks and, where on, internal txs and the rich list) into `db`. */
async function indexReplay(replay: Replay, db: Db, of: DevnetChain = chain, to = BLOCKS): Promise<void> {
  const indexer = createIndexer(configOf(replay.urls, {}, of), { logger: silentLogger(), db });
  const stop = new AbortController();
  const running = indexer.run(stop.signal);
  const deadline = Date.now() + 90_000;
  try {
    for (;;) {
      const s = indexer.status();
      if (s.written >= to && (s.internalTxHeight ?? to) >= to && (s.richListHeight ?? to) >= to) return;
      if (Date.now() > deadline) throw new Error(`the replay was not indexed to ${to}: ${JSON.stringify(s)}`);
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
  expect((await record({ config, from: 1, to: 5, out: partial, logger: silentLogger() })).heights).toBe(5);
  const resumed = await record({ config, from: 1, to: BLOCKS, out: partial, logger: silentLogger() });
  expect(resumed).toMatchObject({ heights: BLOCKS, resumedAt: 6 });
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

  it('resumed holds what an uninterrupted one does', () => {
    expect(readManifest(partial)!.heights).toEqual(readManifest(out)!.heights);
    const whole = questionsOf(out);
    const resumed = questionsOf(partial);
    expect(
      [...resumed].filter((k) => !whole.has(k)),
      'asked only by the resumed run',
    ).toEqual([]);
    expect(
      [...whole].filter((k) => !resumed.has(k)),
      'asked only by the uninterrupted run',
    ).toEqual([]);
  });

  it('goes on to the next URL of a surface when one is down or does not answer in time', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const refused = createServer();
    await new Promise<void>((r) => refused.listen(0, '127.0.0.1', r));
    const down = `http://127.0.0.1:${(refused.address() as AddressInfo).port}`;
    await new Promise<void>((r) => refused.close(() => r()));
    try {
      const hanging = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const config = configOf(
        {
          rpc: `${down},${chain.urls.rpc}`,
          rest: `${hanging},${chain.urls.rest}`,
          jsonRpc: `${down},${chain.urls.jsonRpc}`,
        },
        { QUERY_TIMEOUT: '500ms' },
      );
      const result = await record({ config, from: 1, to: 3, out: join(dir, 'urls'), logger: silentLogger() });
      expect(result.heights).toBe(3);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  }, 60_000);

  it('of a height the node prunes while recording stops with an error naming it', async () => {
    // A replay of the recording without height 7 is a node that answers "not available" for it.
    const gap = join(dir, 'gap');
    cpSync(out, gap, { recursive: true });
    const manifest = readManifest(gap)!;
    rmSync(join(gap, 'heights', '7.json.gz'));
    writeManifest(gap, { ...manifest, heights: manifest.heights.filter((h) => h !== 7) });
    const replay = await startReplay({ dir: gap, host: '127.0.0.1', portBase: 0, logger: silentLogger() });
    try {
      const config = configOf(replay.urls);
      await expect(
        record({ config, from: 1, to: BLOCKS, out: join(dir, 'gap-out'), logger: silentLogger() }),
      ).rejects.toThrow(/height 7 is pruned/);
    } finally {
      await replay.close();
    }
  }, 60_000);

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
  let direct: Awaited<ReturnType<typeof digest>> | undefined;

  // Every request the replayed indexer makes is recorded, whatever its batching and timing.
  it.each([
    ['uninterrupted', () => out],
    ['resumed', () => partial],
  ])(
    'of a recording %s gives the store indexing the devnet gives, every request recorded',
    async (_, of) => {
      if (!direct) {
        const db = await testDb.fresh();
        await indexChain(chain, db);
        direct = await digest(db);
      }
      const replay = await startReplay({ dir: of(), host: '127.0.0.1', portBase: 0, logger: silentLogger() });
      try {
        const replayed = await testDb.fresh();
        await indexReplay(replay, replayed);
        expect(await digest(replayed)).toEqual(direct);
        expect(replay.unrecorded()).toBe(0);
      } finally {
        await replay.close();
      }
    },
    180_000,
  );

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
      // A body past what a node takes is refused with a JSON error, and not kept.
      const big = await fetch(replay.urls.jsonRpc!, { method: 'POST', body: 'x'.repeat(5 * 1024 * 1024) });
      expect(big.status).toBe(413);
      expect(await big.json()).toMatchObject({ code: 8, details: [] });
    } finally {
      await replay.close();
    }
  });
});

// Move and Wasm: their blocks, txs and metadata look-ups (Move resources, Wasm contract queries).
describe.each(['move', 'wasm'] as const)('a %s chain recorded, replayed and indexed', (vm) => {
  const testDb = useTestDb('pglite');
  const blocks = 8;
  let produced: { devnet: Devnet; chain: DevnetChain } | undefined;
  afterAll(async () => {
    await produced?.devnet.close();
  });

  it('gives the store indexing the devnet gives, every request recorded', async () => {
    produced = await producedDevnet(vm, blocks, `record-replay-${vm}`);
    const of = produced.chain;
    const recording = join(dir, vm);
    await record({
      config: configOf(of.urls, {}, of),
      from: 1,
      to: blocks,
      out: recording,
      logger: silentLogger(),
    });
    const direct = await testDb.fresh();
    await indexChain(of, direct);
    const replay = await startReplay({
      dir: recording,
      host: '127.0.0.1',
      portBase: 0,
      logger: silentLogger(),
    });
    try {
      const replayed = await testDb.fresh();
      await indexReplay(replay, replayed, of, blocks);
      expect(await digest(replayed)).toEqual(await digest(direct));
      expect(replay.unrecorded()).toBe(0);
    } finally {
      await replay.close();
    }
  }, 120_000);
});
