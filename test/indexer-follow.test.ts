import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { createMetricsRegistry } from 'weft/common/metrics.js';
import { createIndexer } from 'weft/indexer/indexer.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { startNodeServers } from 'weft-devnet/servers/index.js';
import { captureLogger, configFor, reached, startIndexer, testDevnet, waitFor } from './indexer-support.js';

/**
 * The indexer against a live devnet: backfill, then following new blocks as they are produced, a node
 * that goes away and comes back, a node behind the database, a pruned height, a wrong chain id — on
 * PGlite and on PostgreSQL.
 */

const backends = ['pglite', 'postgres'] as const;

describe.each(backends)('indexer following a devnet (%s)', (backend) => {
  const testDb = useTestDb(backend);
  let devnet: Devnet;

  beforeAll(async () => {
    devnet = await testDevnet({
      seed: `follow-${backend}`,
      vms: ['evm'],
      accounts: 4,
      txsPerBlock: 5,
    });
    await devnet.fastForward(15);
  });

  afterAll(() => devnet.close());

  it('backfills, then writes each new block after the devnet produced it, and nothing beyond', async () => {
    const chain = devnet.chains[0]!;
    const config = configFor(chain, { pollIntervalMs: 100 });
    const db = await testDb.fresh();
    const { logger } = captureLogger();
    const running = startIndexer(config, db, logger);
    try {
      await waitFor('the backfill', () => reached(running, config, chain.chain.latestHeight()));

      // The chain keeps producing, at varying points of the poll cycle. Each height is written once the
      // devnet has produced it, never before: between steps the indexer sits at the chain's head.
      // (How soon after is measured by `npm run bench -- follow`.)
      for (let i = 0; i < 6; i += 1) {
        const before = chain.chain.latestHeight();
        await sleep(40 + 60 * i);
        expect(running.indexer.status().written).toBe(before);
        await devnet.step();
        const height = chain.chain.latestHeight();
        expect(height).toBe(before + 1);
        await waitFor(`height ${height}`, () => running.indexer.status().written >= height, 30_000);
        expect(running.indexer.status().written).toBe(height);
      }

      const head = chain.chain.latestHeight();
      await waitFor('the extensions', () => reached(running, config, head));
      const rows = await db.query<{ height: string; hash: Uint8Array }>(
        'SELECT height, hash FROM block ORDER BY height',
      );
      expect(rows.map((r) => Number(r.height))).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      for (const row of rows) {
        const blockId = chain.chain.getBlock(Number(row.height))!.block.block_id as { hash: string };
        expect(Buffer.from(row.hash).toString('hex'), `block ${row.height}`).toBe(blockId.hash.toLowerCase());
      }
      const [txs] = await db.query<{ n: string }>('SELECT count(*) AS n FROM tx');
      let chainTxs = 0;
      for (let h = 1; h <= head; h += 1) chainTxs += chain.chain.getBlock(h)!.txs.length;
      expect(Number(txs!.n)).toBe(chainTxs);
    } finally {
      await running.stop();
    }
  });

  it('waits while the node is down, says so once, and resumes when it is back', async () => {
    const chain = devnet.chains[0]!;
    const config = configFor(chain, { pollIntervalMs: 200 });
    const db = await testDb.fresh();
    const { logger, records } = captureLogger();
    const running = startIndexer(config, db, logger);
    try {
      await waitFor('the backfill', () => reached(running, config, chain.chain.latestHeight()));
      await chain.servers.close();
      await devnet.step();
      await devnet.step();
      await waitFor('the waiting line', () => records.some((r) => r.msg.includes('not answering')), 20_000);
      await sleep(1500);
      expect(records.filter((r) => r.msg.includes('not answering'))).toHaveLength(1);

      const port = (url: string) => Number(new URL(url).port);
      const back = await startNodeServers(chain.chain, {
        ports: { rpc: port(chain.urls.rpc), rest: port(chain.urls.rest), jsonRpc: port(chain.urls.jsonRpc!) },
      });
      chain.servers = back;
      const head = chain.chain.latestHeight();
      await waitFor('the resume', () => reached(running, config, head), 30_000);
      expect(records.some((r) => r.msg.includes('answers again'))).toBe(true);
    } finally {
      await running.stop();
    }
  });

  it('waits for a node that is behind the database', async () => {
    const chain = devnet.chains[0]!;
    const db = await testDb.fresh();
    const ahead = chain.chain.latestHeight();
    // A first run indexes the chain as it is now.
    const first = startIndexer(configFor(chain, { internalTx: false, richList: false }), db, silentLogger());
    await waitFor('the first run', () => first.indexer.status().written >= ahead);
    await first.stop();

    // The same chain, freshly started with fewer blocks (same seed: same blocks), is behind the database.
    const lagging = await testDevnet({
      seed: `follow-${backend}`,
      vms: ['evm'],
      accounts: 4,
      txsPerBlock: 5,
    });
    try {
      await lagging.fastForward(10);
      const laggingChain = lagging.chains[0]!;
      const config = configFor(laggingChain, { internalTx: false, richList: false, pollIntervalMs: 100 });
      const { logger, records } = captureLogger();
      const second = startIndexer(config, db, logger);
      try {
        await waitFor('the behind line', () => records.some((r) => r.msg.includes('behind the database')));
        expect(second.indexer.status().written).toBe(ahead);
        while (laggingChain.chain.latestHeight() < ahead + 2) await lagging.step();
        await waitFor('the catch-up', () => second.indexer.status().written >= ahead + 2, 20_000);
        expect(records.filter((r) => r.msg.includes('behind the database'))).toHaveLength(1);
      } finally {
        await second.stop();
      }
    } finally {
      await lagging.close();
    }
  });
});

describe('indexer refusals', () => {
  const testDb = useTestDb('pglite');

  it('stops at a pruned height with one clear error line, and does not retry it', async () => {
    const devnet = await testDevnet({
      seed: 'pruned',
      vms: ['move'],
      accounts: 3,
      txsPerBlock: 2,
    });
    try {
      await devnet.fastForward(12);
      const chain = devnet.chains[0]!;
      chain.chain.prune(8);
      const { logger, records } = captureLogger();
      const registry = createMetricsRegistry();
      const indexer = createIndexer(configFor(chain, { pollIntervalMs: 100 }), {
        logger,
        registry,
        db: await testDb.fresh(),
      });
      const controller = new AbortController();
      const done = indexer.run(controller.signal);
      const prunedFetches = async () =>
        (await registry.getSingleMetric('weft_indexer_fetch_errors_total')!.get()).values
          .filter((v) => v.labels.kind === 'pruned_height')
          .reduce((sum, v) => sum + v.value, 0);
      await waitFor('the pruned line', () => records.some((r) => r.level >= 50));
      await sleep(200);
      const fetchesThen = await prunedFetches();
      await sleep(1500);
      expect(await prunedFetches()).toBe(fetchesThen);
      const errors = records.filter((r) => r.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.msg).toMatch(/^height 1 is pruned on the node \(its lowest height is 8\)/);
      expect(errors[0]!.msg).toMatch(/START_HEIGHT/);
      expect(indexer.status().written).toBe(0);
      controller.abort();
      await done;
    } finally {
      await devnet.close();
    }
  });

  it('refuses a node that serves another chain', async () => {
    const devnet = await testDevnet({
      seed: 'chain-id',
      vms: ['wasm'],
      accounts: 2,
      txsPerBlock: 0,
    });
    try {
      await devnet.fastForward(2);
      const config = configFor(devnet.chains[0]!, { chainId: 'other-chain-1' });
      const indexer = createIndexer(config, { logger: silentLogger(), db: await testDb.fresh() });
      await expect(indexer.run(new AbortController().signal)).rejects.toThrow(
        /CHAIN_ID: is other-chain-1, but the node at .* serves chain weft-wasm-1/,
      );
    } finally {
      await devnet.close();
    }
  });
});
