import type { FastifyInstance } from 'fastify';
import { createApiServer } from 'weft/api/server.js';
import { type ApiClient, createApiClient } from 'weft/api/test-support/api-client.js';
import { silentLogger } from 'weft/common/logger.js';
import { createMetricsRegistry } from 'weft/common/metrics.js';
import { loadIndexerConfig } from 'weft/indexer/config.js';
import { createIndexer } from 'weft/indexer/indexer.js';
import { startReplay } from 'weft/record/replay.js';
import type { Db } from 'weft/store/db.js';
import type { DerivedRecording } from './derive.js';

/**
 * One corpus chain indexed through `weft replay`, as a user would run it: the replay serves the recording,
 * the indexer reads it over HTTP into `db`, and an API serves the store. A derived recording holds scattered
 * real heights, so the indexer runs once per height with START_HEIGHT there (rollytics' rule: it only ever
 * moves the start forward), while the replay's head is that height.
 */
export interface IndexedReplay {
  api: ApiClient;
  app: FastifyInstance;
  /** `weft_indexer_decode_dropped_events_total` by label set, summed over the runs. */
  drops: Map<string, number>;
  /** Requests the replay had no recording for. */
  unrecorded: number;
  close(): Promise<void>;
}

const PREFIX = 'init';

export async function indexReplay(recording: DerivedRecording, db: Db): Promise<IndexedReplay> {
  const { manifest } = recording;
  const replay = await startReplay({
    dir: recording.dir,
    host: '127.0.0.1',
    portBase: 0,
    logger: silentLogger(),
  });
  const drops = new Map<string, number>();
  try {
    for (const height of manifest.heights) {
      replay.setHead(height);
      const registry = createMetricsRegistry();
      const config = loadIndexerConfig({
        argv: [],
        env: {
          CHAIN_ID: manifest.chain_id,
          VM_TYPE: manifest.vm_type,
          BECH32_PREFIX: PREFIX,
          RPC_URL: replay.urls.rpc,
          REST_URL: replay.urls.rest,
          JSON_RPC_URL: replay.urls.jsonRpc ?? '',
          START_HEIGHT: String(height),
          // Both need node state no tx-level recording holds (a snapshot of balances, traces).
          INTERNAL_TX: 'false',
          RICH_LIST: 'false',
          POLL_INTERVAL: '20',
        },
      });
      const indexer = createIndexer(config, { logger: silentLogger(), db, registry });
      const stop = new AbortController();
      const running = indexer.run(stop.signal);
      let failed: unknown;
      running.catch((err: unknown) => {
        failed = err;
      });
      const deadline = Date.now() + 30_000;
      while (indexer.status().written < height) {
        if (failed) throw failed;
        if (Date.now() > deadline)
          throw new Error(`${manifest.chain_id}: height ${height} not indexed in 30 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      stop.abort();
      await running;
      const metric = await registry.getSingleMetric('weft_indexer_decode_dropped_events_total')?.get();
      for (const value of metric?.values ?? []) {
        const key = JSON.stringify(value.labels);
        drops.set(key, (drops.get(key) ?? 0) + value.value);
      }
    }
    const server = await createApiServer({
      db,
      chain: { chainId: manifest.chain_id, vm: manifest.vm_type, bech32Prefix: PREFIX, internalTx: false },
      restUrls: [replay.urls.rest],
    });
    const { app } = server;
    return {
      api: createApiClient(app),
      app,
      drops,
      get unrecorded() {
        return replay.unrecorded();
      },
      async close() {
        await server.close();
        await replay.close();
      },
    };
  } catch (err) {
    await replay.close();
    throw err;
  }
}
