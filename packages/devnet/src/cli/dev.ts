import { loadApiConfig } from 'weft/api/config.js';
import { startApi } from 'weft/cli/api.js';
import { startDashboard } from 'weft/cli/dashboard.js';
import { startIndexer } from 'weft/cli/indexer.js';
import { startRouter } from 'weft/cli/router.js';
import { loadSettings, type SettingsOf } from 'weft/common/config.js';
import { BaseError, errorMessage, listenOn } from 'weft/common/errors.js';
import { writeJsonFile } from 'weft/common/json-file.js';
import { createLogger, type Logger } from 'weft/common/logger.js';
import { createShutdown, onProcessSignals, type Shutdown } from 'weft/common/shutdown.js';
import { loadIndexerConfig } from 'weft/indexer/config.js';
import { type ProgressFigures, showCatchUp } from 'weft/indexer/progress.js';
import { loadRouterConfig } from 'weft/router/config.js';
import { ROUTER_SCHEMA } from 'weft/router/tracking/index.js';
import { createRegistryServer } from '../dev/registry-server.js';
import { devSettings } from '../dev/settings.js';
import { stackDashboardConfig, stackManifest, stackTable } from '../dev/stack.js';
import { forgetAnotherRun, openDevStores } from '../dev/store.js';
import { builtWalletDir, walletPage, walletPageConfig } from '../dev/wallet-page.js';
import { type Devnet, type DevnetChain, startDevnet } from '../devnet.js';
import { type ChainPlan, networkPlan } from '../network/plan.js';
import { fundsOpHooks, opHookFunderAccount } from '../opinit/op-hook-funder.js';
import { configFileArgs, devnetOptions, PORT_BASE, prepareDevnet } from '../settings.js';

type DevSettings = SettingsOf<typeof devSettings>;

/**
 * `weft dev` (`npm start`): the devnet (the full network by default), for each of its chains with a VM
 * (the rollups, the L1) an indexer following the chain's nodes and an API serving what it indexed, and
 * the router with its tracker over the devnet's registry, in one process. Each chain and the router
 * keep an embedded store of their own, run in a worker thread (`packages/devnet/src/dev/store.ts`).
 */
export async function runDev(argv: string[]): Promise<void> {
  const settings = loadSettings(devSettings, {
    argv: [...configFileArgs(argv, process.env), ...argv],
    env: process.env,
  });
  const log = (name: string) => createLogger({ level: settings.logLevel, format: settings.logFormat, name });
  const logger = log('dev');
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);

  let indexers: Array<{ chainId: string; running: Promise<void>; figures: () => ProgressFigures }>;
  try {
    indexers = await startStack(settings, shutdown, logger, log);
  } catch (err) {
    // A signal during start-up: its handler stops what started and exits.
    if (shutdown.isKilled()) return;
    // Whatever started is stopped in order (the store above all) before the one-line error.
    await shutdown.kill('start-up failed');
    throw err;
  }
  // The log level keeps the indexers' records quiet: on a terminal, one line tells how far they are.
  shutdown.add(showCatchUp(indexers.map((i) => i.figures)));

  // An indexer only stops by itself on an error it cannot retry; the stack then stops with it.
  const stopped = await Promise.race(
    indexers.map(({ chainId, running }) =>
      running.then(
        () => ({ chainId, err: undefined as unknown }),
        (err: unknown) => ({ chainId, err }),
      ),
    ),
  );
  if (shutdown.isKilled()) return;
  await shutdown.kill('an indexer stopped');
  throw new BaseError(
    'WEFT_ERR_DEV_INDEXER_STOPPED',
    `the indexer of ${stopped.chainId} stopped: ${errorMessage(stopped.err ?? 'without an error')}`,
    { cause: stopped.err },
  );
}

/**
 * Starts the parts in an order whose reverse is the shutdown's: the stores (in their threads, while
 * the devnet starts), the devnet, the indexers, the APIs, the router. A signal thus first stops the
 * router and the APIs taking requests, lets the indexers commit their batch, stops the devnet and
 * then closes the stores.
 */
async function startStack(
  settings: DevSettings,
  shutdown: Shutdown,
  logger: Logger,
  log: (name: string) => Logger,
): Promise<Array<{ chainId: string; running: Promise<void>; figures: () => ProgressFigures }>> {
  // The manifest is written once the whole stack serves, with the indexers' and the router's URLs.
  const startSettings = { ...settings, manifest: '' };
  // An indexer and its API follow each chain with a VM (the rollups, the L1); the external chains
  // are served but not indexed. Their stores open in their threads while this one builds the chains.
  const indexed = networkPlan(settings.network, settings.vms)
    .filter((plan) => plan.role === 'rollup' || plan.role === 'l1')
    .map((plan) => plan.chainId);
  const opening = openDevStores(settings.dataDir, indexed, logger, (store) =>
    shutdown.add(() => store.db.close()),
  );
  // Read once the devnet is up; a failure meanwhile must not count as unhandled.
  opening.catch(() => undefined);
  let devnet: Devnet;
  try {
    devnet = await listenOn(PORT_BASE, () =>
      startDevnet({ ...devnetOptions(startSettings), logger: log('devnet') }),
    );
  } catch (err) {
    // Every store that opens is closed by the shutdown: wait for them first.
    await opening.catch(() => undefined);
    throw err;
  }
  shutdown.add(() => devnet.close());
  await prepareDevnet(devnet, startSettings, logger);

  const chains = devnet.chains;
  const opened = await opening;
  const routerStore = opened.router;
  // Each chain's store, by the id it was opened for.
  const stores = chains.map((chain) => opened.chains[indexed.indexOf(chain.chain.info.chainId)]!);
  const anotherRun = await Promise.all(
    chains.map((chain, i) => forgetAnotherRun(stores[i]!.db, chain, logger)),
  );
  // Transfers tracked on another run of the chains (kept in memory, another seed) can never be found.
  if (anotherRun.includes(true)) {
    logger.warn('the chains are another run: the router forgets the transfers it tracked');
    await routerStore.db.exec(`DROP SCHEMA IF EXISTS ${ROUTER_SCHEMA} CASCADE`);
  }
  logger.info({ dataDir: settings.dataDir }, 'embedded stores open');

  const indexerLogger = log('indexer');
  const indexers = [];
  for (const [i, chain] of chains.entries()) {
    const config = loadIndexerConfig({ argv: [], env: indexerEnv(chain, settings) });
    const { indexer, running } = await startIndexer(config, {
      logger: indexerLogger.child({ chain: config.chainId }),
      shutdown,
      db: stores[i]!.db,
      createWriter: stores[i]!.createWriter,
      progress: 'log',
    });
    // Handled here at once; runDev reads the outcome.
    running.catch(() => undefined);
    indexers.push({ chainId: config.chainId, running, figures: indexer.figures });
  }

  const apiLogger = log('api');
  const indexerApis = new Map<string, string>();
  for (const [i, chain] of chains.entries()) {
    const port = settings.apiPortBase === 0 ? 0 : settings.apiPortBase + i;
    const config = loadApiConfig({ argv: [], env: apiEnv(chain, settings, port) });
    const { url } = await startApi(config, {
      logger: apiLogger.child({ chain: chain.chain.info.chainId }),
      shutdown,
      db: stores[i]!.db,
      portSetting: '--api-port-base / DEV_API_PORT_BASE',
    });
    indexerApis.set(chain.chain.info.chainId, url);
  }

  const registryServer = await createRegistryServer({
    source: devnet.registry,
    indexerApis,
    logger: log('registry'),
  });
  shutdown.add(() => registryServer.close());
  const registryUrl = await listenOn('--registry-port / DEV_REGISTRY_PORT', () =>
    registryServer.listen(settings.host, settings.registryPort),
  );

  const routerLogger = log('router');
  const router = await startRouter(loadRouterConfig({ argv: [], env: routerEnv(settings, devnet.all) }), {
    logger: routerLogger,
    shutdown,
    db: routerStore.db,
    portSetting: '--router-port / DEV_ROUTER_PORT',
  });

  // The router tracks the transfers the devnet's own traffic starts, as if each had been registered.
  devnet.onInterchainTx(({ chainId, txHash }) => {
    if (shutdown.isKilled()) return;
    router.tracker.track(chainId, txHash).catch((err: unknown) => {
      routerLogger.warn(
        { chainId, txHash, err: errorMessage(err) },
        'cannot track a transfer of the traffic',
      );
    });
  });

  // The wallet page is served once built; until then the table says how to build it.
  const walletDir = builtWalletDir();
  const wallet = walletPage(
    walletDir,
    walletPageConfig(devnet, { registry: registryUrl, router: router.url }),
  );
  const dashboard = await startDashboard(
    {
      ...stackDashboardConfig(devnet, { indexerApis, router: router.url }),
      wallet: wallet ? '/wallet/' : null,
    },
    { host: settings.host, port: settings.dashboardPort, setting: '--dashboard-port / DEV_DASHBOARD_PORT' },
    { logger: log('dashboard'), shutdown, ...(wallet ? { wallet } : {}) },
  );
  const urls = {
    indexerApis,
    router: router.url,
    dashboard,
    registry: registryUrl,
    wallet: wallet ? `${dashboard}/wallet/` : null,
  };
  // The manifest before the table: whoever waits for the table may read the manifest at once.
  if (settings.manifest) {
    writeJsonFile(settings.manifest, stackManifest(devnet, urls));
    logger.info({ path: settings.manifest }, 'manifest written');
  }
  process.stdout.write(stackTable(devnet, urls));

  devnet.run();
  logger.info({ blockTimeMs: settings.blockTime, txsPerBlock: settings.txsPerBlock }, 'producing blocks');
  return indexers;
}

/**
 * Heights per write transaction (the indexer's default is 100). A write holds its chain's store,
 * one PGlite session, so the chain's API waits for it: while backfilling, a fifth of the batch
 * bounds that wait (`npm run bench -- dev`), and indexing is no slower.
 */
const DEV_BATCH_SIZE = 20;

/**
 * What `weft indexer` would be given to follow `chain`: its nodes, on EVM the internal txs and the
 * rich list, and `DEV_BATCH_SIZE`. Everything else keeps the indexer's defaults, read by its loader.
 */
function indexerEnv(chain: DevnetChain, settings: DevSettings): Record<string, string> {
  const { info } = chain.chain;
  const evm = chain.vm === 'evm';
  return {
    CHAIN_ID: info.chainId,
    VM_TYPE: chain.vm,
    BECH32_PREFIX: info.bech32Prefix,
    RPC_URL: chain.urls.rpc,
    REST_URL: chain.urls.rest,
    JSON_RPC_URL: chain.urls.jsonRpc ?? '',
    INTERNAL_TX: String(evm),
    RICH_LIST: String(evm),
    BATCH_SIZE: String(DEV_BATCH_SIZE),
    LOG_LEVEL: settings.logLevel,
    LOG_FORMAT: settings.logFormat,
  };
}

/**
 * What `weft router` would be given to route over the devnet's registry folder, with the key the devnet
 * funds on its EVM rollup for creating first-time hook signers' accounts.
 */
function routerEnv(settings: DevSettings, chains: Array<{ plan: ChainPlan }>): Record<string, string> {
  const funded = fundsOpHooks(chains.map((c) => c.plan));
  return {
    REGISTRY: settings.registry,
    HOST: settings.host,
    PORT: String(settings.routerPort),
    ROUTER_IBC_TIMEOUT_SECONDS: String(settings.ibcTimeout),
    ...(funded ? { ROUTER_OP_HOOK_FUNDER_KEY: opHookFunderAccount(settings.seed).privateKey } : {}),
    LOG_LEVEL: settings.logLevel,
    LOG_FORMAT: settings.logFormat,
  };
}

/** What `weft api` would be given to serve `chain` on `port`. */
function apiEnv(chain: DevnetChain, settings: DevSettings, port: number): Record<string, string> {
  const { info } = chain.chain;
  return {
    HOST: settings.host,
    PORT: String(port),
    CHAIN_ID: info.chainId,
    VM_TYPE: chain.vm,
    BECH32_PREFIX: info.bech32Prefix,
    REST_URL: chain.urls.rest,
    INTERNAL_TX: String(chain.vm === 'evm'),
    CORS_ENABLED: String(settings.cors),
    LOG_LEVEL: settings.logLevel,
    LOG_FORMAT: settings.logFormat,
  };
}
