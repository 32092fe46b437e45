import { resolveChain } from '../api/chain-context.js';
import { apiSettings, loadApiConfig } from '../api/config.js';
import { createApiServer } from '../api/server.js';
import { usage } from '../common/config.js';
import { createLogger } from '../common/logger.js';
import { createMetricsRegistry, serveMetrics } from '../common/metrics.js';
import { createShutdown, onProcessSignals } from '../common/shutdown.js';
import { openDb } from '../store/db.js';

export async function runApi(argv: string[]): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(`usage: weft api [flags]\n\n${usage(apiSettings)}\n`);
    return;
  }
  const config = loadApiConfig({ argv, env: process.env });
  const logger = createLogger({ ...config.log, name: 'api' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);

  const db = await openDb({
    dsn: config.db.dsn,
    dataDir: config.db.dataDir,
    schema: config.db.schema,
    poolSize: config.db.poolSize,
    connectTimeoutMs: 5000,
  });
  shutdown.add(() => db.close());
  const chain = await resolveChain(db, config);
  if (!config.db.dsn) {
    logger.warn(
      { dataDir: config.db.dataDir },
      'serving the embedded store: PGlite is single-process, so no indexer may write this folder meanwhile (use DB_DSN, or weft dev)',
    );
  }

  const registry = createMetricsRegistry({ defaultMetrics: true });
  registry.setDefaultLabels({ rollup_chain_id: chain.chainId });
  if (config.metrics.enabled) {
    const metrics = await serveMetrics(registry, config.metrics);
    shutdown.add(() => metrics.close());
    logger.info({ url: metrics.url }, 'serving metrics');
  }

  const server = await createApiServer({
    db,
    chain,
    restUrls: config.restUrls,
    restTimeoutMs: config.restTimeoutMs,
    cors: config.cors,
    cache: config.cache,
    logger,
    registry,
  });
  // Registered last, so it runs first: stop taking requests, finish those in flight, then close the store.
  shutdown.add(() => server.close());
  const url = await server.listen(config.host, config.port);
  logger.info(
    { url, chainId: chain.chainId, vm: chain.vm, store: config.db.dsn ? 'postgres' : 'pglite' },
    'serving the indexer API',
  );
}
