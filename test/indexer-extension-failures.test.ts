import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from 'weft/api/server.js';
import { createMetricsRegistry, type Registry } from 'weft/common/metrics.js';
import type { IndexerConfig } from 'weft/indexer/config.js';
import type { Db } from 'weft/store/db.js';
import { digest } from 'weft/store/digest.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { captureLogger, configFor, reached, startIndexer, testDevnet, waitFor } from './indexer-support.js';

/**
 * An extension whose writes the store refuses (a trigger that raises, as a broken constraint or a
 * revoked grant would) fails, again and again, while blocks go on: each failure is counted in
 * `weft_indexer_extension_failures_total` and logged as an error, after a pause that doubles up to its
 * cap; `/status` shows how far the extension is behind. Once the store takes the writes again, the
 * extensions catch up to the same store as a run that never failed.
 */

const HEIGHT = 30;
const BACKOFF = { baseMs: 100, maxMs: 400 };
const NO_CACHE = { enabled: false, size: 0, listTtlMs: 0, itemTtlMs: 0 };

// Internal txs refused from the start; the rich list gets its snapshot (height 1), then is refused.
const REFUSE = `
CREATE FUNCTION refuse_extension_progress() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'progress of % refused', NEW.name;
END $$;
CREATE TRIGGER refuse_extension_progress BEFORE INSERT OR UPDATE ON progress FOR EACH ROW
  WHEN (NEW.name = 'internal_tx' OR (NEW.name = 'rich_list' AND NEW.height > 1))
  EXECUTE FUNCTION refuse_extension_progress();
`;

let devnet: Devnet;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'extension-failures',
    vms: ['evm'],
    accounts: 5,
    txsPerBlock: 4,
    haltHeight: HEIGHT,
  });
  await devnet.fastForward(HEIGHT);
});

afterAll(() => devnet.close());

async function failures(registry: Registry, extension: string): Promise<number> {
  const metric = registry.getSingleMetric('weft_indexer_extension_failures_total');
  const { values } = await metric!.get();
  return values.find((v) => v.labels.extension === extension)?.value ?? 0;
}

async function indexClean(config: IndexerConfig, db: Db) {
  const running = startIndexer(config, db, captureLogger().logger);
  try {
    await waitFor('a clean run', () => reached(running, config, HEIGHT));
  } finally {
    await running.stop();
  }
  return digest(db);
}

describe.each(['pglite', 'postgres'] as const)('extensions whose writes %s refuses', (backend) => {
  const testDb = useTestDb(backend);

  it('retry with backoff, count and log each failure, show their lag, and catch up', async () => {
    const chain = devnet.chains[0]!;
    const config = configFor(chain, { batchSize: 10 });
    const db = await testDb.fresh();
    await db.exec(REFUSE);
    const registry = createMetricsRegistry();
    const { logger, records } = captureLogger();
    const running = startIndexer(config, db, logger, { registry, extensionBackoff: BACKOFF });
    const api = await createApiServer({
      db,
      chain: { ...chain.chain.info, vm: 'evm', internalTx: true },
      cache: NO_CACHE,
    });
    const status = async () => (await api.app.inject('/status')).json();
    try {
      await waitFor(
        'the blocks, and both extensions failing five times',
        async () =>
          running.indexer.status().written >= HEIGHT &&
          (await failures(registry, 'internal_tx')) >= 5 &&
          (await failures(registry, 'rich_list')) >= 5,
      );
      expect(running.indexer.status()).toMatchObject({ internalTxHeight: 0, richListHeight: 1 });
      for (const extension of ['internal-tx', 'rich-list']) {
        const errors = records.filter((r) => r.level === 50 && r.extension === extension);
        expect(errors.length).toBeGreaterThanOrEqual(5);
        // One error line per failure, each naming the cause and the pause, which doubles up to its cap.
        expect(errors.slice(0, 5).map((r) => r.retryInMs)).toEqual([100, 200, 400, 400, 400]);
        expect(errors.slice(0, 5).map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5]);
        expect(errors[0]!.err).toMatch(/progress of (internal_tx|rich_list) refused/);
      }
      expect(await status()).toMatchObject({
        height: HEIGHT,
        internal_tx_lag: HEIGHT,
        rich_list_height: 1,
        rich_list_lag: HEIGHT - 1,
      });

      await db.exec('DROP TRIGGER refuse_extension_progress ON progress');
      await waitFor('the extensions to catch up', () => reached(running, config, HEIGHT));
      expect(await status()).toMatchObject({
        height: HEIGHT,
        internal_tx_height: HEIGHT,
        internal_tx_lag: 0,
        rich_list_height: HEIGHT,
        rich_list_lag: 0,
      });
      const recovered = records.filter((r) => r.msg === 'extension writes again');
      expect(recovered.map((r) => r.extension).sort()).toEqual(['internal-tx', 'rich-list']);
    } finally {
      await running.stop();
      await api.close();
    }
    const failed = await digest(db);
    expect(failed).toEqual(await indexClean(config, await testDb.fresh()));
  });
});
