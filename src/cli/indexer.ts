import { usage } from '../common/config.js';
import { createLogger } from '../common/logger.js';
import { createMetricsRegistry, serveMetrics } from '../common/metrics.js';
import { createShutdown, onProcessSignals } from '../common/shutdown.js';
import { indexerSettings, loadIndexerConfig } from '../indexer/config.js';
import { createIndexer } from '../indexer/indexer.js';

export async function runIndexer(argv: string[]): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(`usage: weft indexer [flags]\n\n${usage(indexerSettings)}\n`);
    return;
  }
  const config = loadIndexerConfig({ argv, env: process.env });
  const logger = createLogger({ ...config.log, name: 'indexer' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);

  const registry = createMetricsRegistry({ defaultMetrics: true });
  if (config.metrics.enabled) {
    const server = await serveMetrics(registry, config.metrics);
    shutdown.add(() => server.close());
    logger.info({ url: server.url }, 'serving metrics');
  }
  const indexer = createIndexer(config, {
    logger,
    registry,
    progress: process.stderr.isTTY ? 'tty' : 'log',
  });
  const running = indexer.run(shutdown.signal);
  // A signal stops the loop; the process exits once the batch being written is committed.
  shutdown.add(() => running.catch(() => undefined));
  await running;
  if (!shutdown.isKilled()) await shutdown.kill('indexer stopped');
}
