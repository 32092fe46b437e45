import { loadSettings } from '../common/config.js';
import { listenOn } from '../common/errors.js';
import { createLogger, type Logger } from '../common/logger.js';
import { createShutdown, onProcessSignals, type Shutdown } from '../common/shutdown.js';
import { createDashboardServer, type DashboardConfig, type WalletPage } from '../dashboard/server.js';
import { dashboardSettings } from '../dashboard/settings.js';

/** `weft dashboard`: the dashboard over any deployment's public APIs (the indexer APIs and the router). */
export async function runDashboard(argv: string[]): Promise<void> {
  const settings = loadSettings(dashboardSettings, { argv, env: process.env });
  const logger = createLogger({ level: settings.logLevel, format: settings.logFormat, name: 'dashboard' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);
  const url = await startDashboard(
    { router: settings.routerUrl || null, chains: settings.indexerApis },
    { host: settings.host, port: settings.port, setting: '--port / PORT' },
    { logger, shutdown },
  );
  process.stdout.write(`dashboard url=${url}\n`);
}

/** Serves the dashboard of `config` on `listen`; `weft dashboard` and `weft dev` both start it so. */
export async function startDashboard(
  config: DashboardConfig,
  listen: { host: string; port: number; setting: string },
  deps: { logger: Logger; shutdown: Shutdown; wallet?: WalletPage },
): Promise<string> {
  const server = await createDashboardServer({
    config,
    logger: deps.logger,
    ...(deps.wallet ? { wallet: deps.wallet } : {}),
  });
  deps.shutdown.add(() => server.close());
  const url = await listenOn(listen.setting, () => server.listen(listen.host, listen.port));
  deps.logger.info({ url, chains: config.chains.length, router: config.router }, 'serving the dashboard');
  return url;
}
