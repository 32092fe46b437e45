import { resolveChain } from '../api/chain-context.js';
import { type ApiConfig, loadApiConfig } from '../api/config.js';
import type { ChainContext } from '../api/context.js';
import { createApiServer } from '../api/server.js';
import { listenOn } from '../common/errors.js';
import { createLogger, type Logger } from '../common/logger.js';
import { createMetricsRegistry, serveMetrics } from '../common/metrics.js';
import { createShutdown, onProcessSignals, type Shutdown } from '../common/shutdown.js';
import { type Db, openDb } from '../store/db.js';
import { assertSchemaKnown } from '../store/migrate.js';

export async function runApi(argv: string[]): Promise<void> {
  const config = loadApiConfig({ argv, env: process.env });
  const logger = createLogger({ ...config.log, name: 'api' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);
  await startApi(config, { logger, shutdown });
}

export interface StartApiDeps {
  logger: Logger;
  /** Stops the server (no new requests, those in flight finish) and closes what this call opened. */
  shutdown: Shutdown;
  /** An open store to read (left open); absent: opened from the config. */
  db?: Db;
  /** The setting that chose the port, named when it is taken (default `--port / PORT`). */
  portSetting?: string;
}

export interface StartedApi {
  url: string;
  chain: ChainContext;
}

/**
 * Builds the API of `config` and starts listening: what `weft api` does, and what `weft dev` does
 * once per rollup over the store its indexer writes. Serves metrics when the config says so.
 */
export async function startApi(config: ApiConfig, deps: StartApiDeps): Promise<StartedApi> {
  const { logger, shutdown } = deps;
  let db = deps.db;
  if (!db) {
    const opened = await openDb({
      dsn: config.db.dsn,
      dataDir: config.db.dataDir,
      schema: config.db.schema,
      poolSize: config.db.poolSize,
      connectTimeoutMs: 5000,
      statementTimeoutMs: config.db.statementTimeoutMs,
    });
    shutdown.add(() => opened.close());
    db = opened;
    if (!config.db.dsn) {
      logger.warn(
        { dataDir: config.db.dataDir },
        'serving the embedded store: PGlite is single-process, so no indexer may write this folder meanwhile (use DB_DSN, or weft dev)',
      );
    }
  }
  // A store a newer weft migrated may hold formats this one cannot read: refuse it at start.
  await assertSchemaKnown(db);
  const chain = await resolveChain(db, config);

  const registry = createMetricsRegistry({ defaultMetrics: config.metrics.enabled });
  registry.setDefaultLabels({ rollup_chain_id: chain.chainId });
  if (config.metrics.enabled) {
    const metrics = await listenOn('--metrics-port / METRICS_PORT', () =>
      serveMetrics(registry, config.metrics),
    );
    shutdown.add(() => metrics.close());
    logger.info({ url: metrics.url }, 'serving metrics');
  }

  const server = await createApiServer({
    db,
    storeLimits: config.db,
    chain,
    restUrls: config.restUrls,
    restTimeoutMs: config.restTimeoutMs,
    cors: config.cors,
    cache: config.cache,
    logger,
    registry,
  });
  // Registered after the store, so it runs before it: stop taking requests, finish those in flight.
  shutdown.add(() => server.close());
  const url = await listenOn(deps.portSetting ?? '--port / PORT', () =>
    server.listen(config.host, config.port),
  );
  logger.info({ url, chainId: chain.chainId, vm: chain.vm, store: db.backend }, 'serving the indexer API');
  return { url, chain };
}
