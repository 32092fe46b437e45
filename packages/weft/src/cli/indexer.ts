import { listenOn } from '../common/errors.js';
import { createLogger, type Logger } from '../common/logger.js';
import { createMetricsRegistry, serveMetrics } from '../common/metrics.js';
import { createShutdown, onProcessSignals, type Shutdown } from '../common/shutdown.js';
import { enableStageTimes } from '../common/stage-times.js';
import { type IndexerConfig, loadIndexerConfig } from '../indexer/config.js';
import { createIndexer, type Indexer, type IndexerDeps } from '../indexer/indexer.js';
import type { ProgressMode } from '../indexer/progress.js';
import type { Db } from '../store/db.js';

export async function runIndexer(argv: string[]): Promise<void> {
  const config = loadIndexerConfig({ argv, env: process.env });
  const logger = createLogger({ ...config.log, name: 'indexer' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);

  const { running } = await startIndexer(config, {
    logger,
    shutdown,
    progress: process.stderr.isTTY ? 'tty' : 'log',
    // Per-stage times on the metrics endpoint, for `npm run bench -- ingest`; off by default.
    stageTimes: process.env.WEFT_STAGE_TIMES === '1',
  });
  await running;
  if (!shutdown.isKilled()) await shutdown.kill('indexer stopped');
}

export interface StartIndexerDeps {
  logger: Logger;
  /** Stops the indexer when it starts; it then waits for the batch being written to commit. */
  shutdown: Shutdown;
  /** An open store to write (left open); absent: opened from the config and closed at the end. */
  db?: Db;
  /** How `db` is written (default `createBlockWriter`). */
  createWriter?: IndexerDeps['createWriter'];
  progress: ProgressMode;
  /** Keep per-stage times and serve them with the metrics (see packages/weft/src/common/stage-times.ts). */
  stageTimes?: boolean;
}

export interface StartedIndexer {
  indexer: Indexer;
  /** Settles when the indexer stops: after a shutdown, or rejected by the error that stopped it. */
  running: Promise<void>;
}

/**
 * Builds the indexer of `config` and runs it until `shutdown`: what `weft indexer` does, and what
 * `weft dev` does once per rollup over the rollup's store. Serves metrics when the config says so.
 */
export async function startIndexer(config: IndexerConfig, deps: StartIndexerDeps): Promise<StartedIndexer> {
  const { logger, shutdown } = deps;
  const registry = createMetricsRegistry({ defaultMetrics: config.metrics.enabled });
  if (deps.stageTimes) enableStageTimes(registry);
  if (config.metrics.enabled) {
    const server = await listenOn('--metrics-port / METRICS_PORT', () =>
      serveMetrics(registry, config.metrics),
    );
    shutdown.add(() => server.close());
    logger.info({ url: server.url }, 'serving metrics');
  }
  const indexer = createIndexer(config, {
    logger,
    registry,
    progress: deps.progress,
    db: deps.db,
    createWriter: deps.createWriter,
  });
  const running = indexer.run(shutdown.signal);
  // A signal stops the loop; shutdown goes on once the batch being written is committed.
  shutdown.add(() => running.catch(() => undefined));
  return { indexer, running };
}
