import { logSettings, parse, type SettingsSpec } from 'weft/common/config.js';
import type { NetworkKind } from '../network/plan.js';
import { devnetSettings } from '../settings.js';

const devnet = devnetSettings;

/**
 * The stack's traffic: a block every 2 s with 2 generated txs on each chain, a quieter network than the
 * devnet's own default (1 s, 10 txs). Every kind of traffic still shows (the rarest, IBC sends, about
 * once a minute on each chain), and the whole stack idles at 0.19–0.25 of a core of a 2-core
 * machine; at the devnet's rate it took three times as much (`npm run bench -- dev`). Both are flags.
 */
const DEV_BLOCK_TIME_MS = 2000;
const DEV_TXS_PER_BLOCK = 2;

/**
 * Settings of `weft dev`: the devnet's (same flags and environment names; the fault injection is left
 * out) and where the stack keeps its data. The indexers, APIs and the router take their defaults.
 */
export const devSettings = {
  config: devnet.config,
  vms: devnet.vms,
  network: { ...devnet.network, default: 'full' as NetworkKind },
  opOutputInterval: devnet.opOutputInterval,
  opFinalizationPeriod: devnet.opFinalizationPeriod,
  seed: devnet.seed,
  blockTime: { ...devnet.blockTime, default: DEV_BLOCK_TIME_MS },
  accounts: devnet.accounts,
  txsPerBlock: { ...devnet.txsPerBlock, default: DEV_TXS_PER_BLOCK },
  stateDir: { ...devnet.stateDir, default: '.weft/dev/chains' },
  dataDir: {
    flag: 'data-dir',
    env: 'DATA_DIR',
    description:
      'folder of the embedded stores (PGlite), a sub-folder per chain and the router’s (memory://: in memory)',
    parse: parse.string,
    default: '.weft/dev/store',
  },
  host: { ...devnet.host, description: 'address the nodes and the APIs listen on' },
  portBase: devnet.portBase,
  registry: {
    ...devnet.registry,
    description: 'write an initia-registry style folder of the chains here; the router reads it',
    default: '.weft/dev/registry',
  },
  apiPortBase: {
    flag: 'api-port-base',
    env: 'DEV_API_PORT_BASE',
    description: 'chain i’s indexer API listens on base+i; 0 picks free ports',
    parse: parse.int(0, 65_000),
    default: 8080,
  },
  routerPort: {
    flag: 'router-port',
    env: 'DEV_ROUTER_PORT',
    description: 'the router API listens on this port; 0 picks a free port',
    parse: parse.int(0, 65_535),
    default: 8090,
  },
  dashboardPort: {
    flag: 'dashboard-port',
    env: 'DEV_DASHBOARD_PORT',
    description: 'the dashboard listens on this port; 0 picks a free port',
    parse: parse.int(0, 65_535),
    default: 8070,
  },
  registryPort: {
    flag: 'registry-port',
    env: 'DEV_REGISTRY_PORT',
    description:
      'the registry service (chains.json, profiles.json, asset lists) listens on this port; 0 picks a free port',
    parse: parse.int(0, 65_535),
    default: 8060,
  },
  ibcTimeout: {
    flag: 'ibc-timeout',
    env: 'DEV_IBC_TIMEOUT_SECONDS',
    description: "the router's IBC timeout for a transfer whose /msgs request names none, s",
    parse: parse.int(1, 7 * 24 * 3600),
    default: 300,
  },
  cors: {
    flag: 'cors-enabled',
    env: 'CORS_ENABLED',
    description: 'the APIs answer CORS (any origin), for a web app on another local port',
    parse: parse.bool,
    boolean: true,
    default: true,
  },
  fastForward: devnet.fastForward,
  haltHeight: devnet.haltHeight,
  manifest: devnet.manifest,
  logLevel: {
    ...logSettings.logLevel,
    description: 'log level (warn keeps the indexers’ progress and the requests quiet)',
    default: 'warn' as const,
  },
  logFormat: logSettings.logFormat,
} satisfies SettingsSpec;
