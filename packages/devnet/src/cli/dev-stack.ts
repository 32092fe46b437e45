import { loadApiConfig } from 'weft/api/config.js';
import { startApi } from 'weft/cli/api.js';
import { startDashboard } from 'weft/cli/dashboard.js';
import { startIndexer } from 'weft/cli/indexer.js';
import { startRouter } from 'weft/cli/router.js';
import { errorMessage, listenOn } from 'weft/common/errors.js';
import { writeJsonFile } from 'weft/common/json-file.js';
import type { Logger } from 'weft/common/logger.js';
import type { Shutdown } from 'weft/common/shutdown.js';
import { loadIndexerConfig } from 'weft/indexer/config.js';
import type { ProgressFigures } from 'weft/indexer/progress.js';
import { loadRouterConfig } from 'weft/router/config.js';
import { ROUTER_SCHEMA } from 'weft/router/tracking/index.js';
import { createRegistryServer } from '../dev/registry-server.js';
import { stackDashboardConfig, stackManifest, stackTable } from '../dev/stack.js';
import { type DevStores, forgetAnotherRun } from '../dev/store.js';
import { builtWalletDir, walletPage, walletPageConfig } from '../dev/wallet-page.js';
import { type DevnetChain, startDevnet } from '../devnet.js';
import type { ChainPlan } from '../network/plan.js';
import { fundsOpHooks, opHookFunderAccount } from '../opinit/op-hook-funder.js';
import { devnetOptions, PORT_BASE, prepareDevnet } from '../settings.js';
import type { DevSettings } from './dev.js';

/**
 * Starts the parts in an order whose reverse is the shutdown's: the stores (opening in their threads
 * since `runDev` began), the devnet, the indexers, the APIs, the router. A signal thus first stops the
 * router and the APIs taking requests, lets the indexers commit their batch, stops the devnet and
 * then closes the stores.
 */
export async function startStack(
  settings: DevSettings,
  stores: { indexed: string[]; opening: Promise<DevStores> },
  shutdown: Shutdown,
  logger: Logger,
  log: (name: string) => Logger,
): Promise<Array<{ chainId: string; running: Promise<void>; figures: () => ProgressFigures }>> {
  // The manifest is written once the whole stack serves, with the indexers' and the router's URLs.
  const startSettings = { ...settings, manifest: '' };
  const { indexed, opening } = stores;
  // A failure from here on reaches `runDev`, which lets the stores finish opening before it stops them.
  const devnet = await listenOn(PORT_BASE, () =>
    startDevnet({ ...devnetOptions(startSettings), logger: log('devnet') }),
  );
  shutdown.add(() => devnet.close());
  await prepareDevnet(devnet, startSettings, logger);

  const chains = devnet.chains;
  const opened = await opening;
  const routerStore = opened.router;
  // Each chain's store, by the id it was opened for.
  const chainStores = chains.map((chain) => opened.chains[indexed.indexOf(chain.chain.info.chainId)]!);
  const anotherRun = await Promise.all(
    chains.map((chain, i) => forgetAnotherRun(chainStores[i]!.db, chain, logger)),
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
      db: chainStores[i]!.db,
      createWriter: chainStores[i]!.createWriter,
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
      db: chainStores[i]!.db,
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
 * rich list, `DEV_BATCH_SIZE`, and a poll of the head twice a block. Everything else keeps the indexer's
 * defaults, read by its loader.
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
    // Twice a block, as the indexer's default does for 1 s blocks.
    POLL_INTERVAL: String(Math.max(100, Math.floor(settings.blockTime / 2))),
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
