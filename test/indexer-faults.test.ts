import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexerConfig } from 'weft/indexer/config.js';
import type { Db } from 'weft/store/db.js';
import { digest } from 'weft/store/digest.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { captureLogger, configFor, reached, startIndexer, testDevnet, waitFor } from './indexer-support.js';

/**
 * A node that fails a fifth of the requests, drops a tenth of the connections and delays a tenth by
 * 300 ms must not change what gets indexed: the digest of the store equals that of a clean run, on
 * PGlite and on PostgreSQL alike.
 */

const HEIGHT = 40;
const FAULTS = { errorRate: 0.2, delayRate: 0.1, delayMs: 300, dropRate: 0.1 };

let devnet: Devnet;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'faults',
    vms: ['evm'],
    accounts: 5,
    txsPerBlock: 6,
    haltHeight: HEIGHT,
  });
  await devnet.fastForward(HEIGHT);
});

afterAll(() => devnet.close());

async function indexAll(config: IndexerConfig, db: Db) {
  const { logger, records } = captureLogger();
  const running = startIndexer(config, db, logger);
  try {
    await waitFor('the whole chain', () => reached(running, config, HEIGHT), 90_000);
  } finally {
    await running.stop();
  }
  return { digest: await digest(db), records, concurrency: running.indexer.status().concurrency };
}

describe('indexer under node faults', () => {
  const pglite = useTestDb('pglite');
  const postgres = useTestDb('postgres');

  it('writes the same store as a clean run', async () => {
    const chain = devnet.chains[0]!;
    const config = configFor(chain, { maxConcurrentRequests: 32, batchSize: 8 });
    const clean = await indexAll(config, await pglite.fresh());
    const cleanPg = await indexAll(config, await postgres.fresh());
    expect(cleanPg.digest).toEqual(clean.digest);

    chain.servers.setFaults(FAULTS);
    try {
      const faultyPglite = await indexAll(config, await pglite.fresh());
      const faultyPostgres = await indexAll(config, await postgres.fresh());
      expect(faultyPglite.digest).toEqual(clean.digest);
      expect(faultyPostgres.digest).toEqual(clean.digest);
      // The controller backed off from its bound while the node struggled.
      expect(faultyPglite.concurrency).toBeLessThan(32);
      // Scattered faults are retried quietly: no warning or error records.
      expect(faultyPglite.records.filter((r) => r.level >= 40)).toEqual([]);
    } finally {
      chain.servers.setFaults({ errorRate: 0, delayRate: 0, dropRate: 0 });
    }
  });
});
