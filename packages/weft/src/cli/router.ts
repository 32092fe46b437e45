import { listenOn } from '../common/errors.js';
import { createLogger, type Logger } from '../common/logger.js';
import { createShutdown, onProcessSignals, type Shutdown } from '../common/shutdown.js';
import { createRouterServer, type RouterPlugin } from '../router/api/server.js';
import { loadRouterConfig, type RouterConfig } from '../router/config.js';
import { loadRegistry } from '../router/registry/load.js';
import {
  migrateTracking,
  ROUTER_SCHEMA,
  startTracker,
  type Tracker,
  trackedChain,
  trackingRoutes,
} from '../router/tracking/index.js';
import { type Db, openDb } from '../store/db.js';

export async function runRouter(argv: string[]): Promise<void> {
  const config = loadRouterConfig({ argv, env: process.env });
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, name: 'router' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);
  await startRouter(config, { logger, shutdown });
}

export interface StartRouterDeps {
  logger: Logger;
  shutdown: Shutdown;
  /** Route plugins mounted beside the router's own (tracking). */
  plugins?: RouterPlugin[];
  /** A store the router works in (in its schema) instead of opening `config`'s; its owner closes it. */
  db?: Db;
  /** The setting that chose the port, named when it is taken (default `--port / PORT`). */
  portSetting?: string;
}

/**
 * Reads the registry, starts tracking the transfers registered in the store, and serves the router API:
 * what `weft router` does.
 */
export async function startRouter(
  config: RouterConfig,
  deps: StartRouterDeps,
): Promise<{ url: string; tracker: Tracker }> {
  const registry = await loadRegistry(config.registry, config.nodes, {
    logger: deps.logger.child({ part: 'registry' }),
  });
  const db = deps.db
    ? await deps.db.withSchema(ROUTER_SCHEMA)
    : await openDb({ dsn: config.dbDsn, dataDir: config.dataDir, schema: ROUTER_SCHEMA });
  deps.shutdown.add(() => db.close());
  await migrateTracking(db);
  const tracker = await startTracker({
    db,
    chains: registry.chains.map(trackedChain),
    logger: deps.logger.child({ part: 'tracking' }),
    timeoutMs: config.nodeTimeoutMs,
    leaseMs: config.trackingLeaseMs,
    unseenRetentionMs: config.trackingUnseenRetentionMs,
    maxUnseen: config.trackingMaxUnseen,
  });
  deps.shutdown.add(() => tracker.stop());
  const server = await createRouterServer({
    registry,
    logger: deps.logger,
    plugins: [trackingRoutes({ tracker }), ...(deps.plugins ?? [])],
    nodeTimeoutMs: config.nodeTimeoutMs,
    ibcTimeoutSeconds: config.ibcTimeoutSeconds,
    opHookFunder: config.opHookFunderKey
      ? { privateKey: config.opHookFunderKey, perMinute: config.opHookFunderRate }
      : undefined,
  });
  deps.shutdown.add(() => server.close());
  const url = await listenOn(deps.portSetting ?? '--port / PORT', () =>
    server.listen(config.host, config.port),
  );
  deps.logger.info(
    { url, chains: registry.chains.length, assets: registry.assets.length },
    'serving the router API',
  );
  // The operator funds this account on each minievm rollup whose deposits take a hook.
  const funded = registry.chains.filter((c) => c.minitia === 'minievm');
  if (config.opHookFunderKey && funded.length > 0)
    deps.logger.info(
      {
        funders: Object.fromEntries(
          funded.map((c) => [c.chainId, server.context.opHookAccounts.funderOn(c)]),
        ),
        perMinute: config.opHookFunderRate,
      },
      "creating op-hook signers' missing accounts",
    );
  return { url, tracker };
}
