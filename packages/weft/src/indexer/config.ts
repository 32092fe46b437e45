import {
  type ConfigSource,
  loadSettings,
  logSettings,
  metricsSettings,
  parse,
  type SettingsSpec,
} from '../common/config.js';
import { ConfigError } from '../common/errors.js';
import type { LogFormat, LogLevel } from '../common/logger.js';
import { storeSettings } from '../store/settings.js';

/** Settings of `weft indexer`: rollytics' environment names, and matching flags. */

const VMS = ['evm', 'move', 'wasm'] as const;
export type IndexerVm = (typeof VMS)[number];

const urls = parse.listOf(parse.url);

const nonEmpty =
  <T>(item: (raw: string, name: string) => T[]) =>
  (raw: string, name: string) => {
    const list = item(raw, name);
    if (list.length === 0) throw new ConfigError(name, 'needs at least one URL');
    return list;
  };

export const indexerSettings = {
  chainId: {
    flag: 'chain-id',
    env: 'CHAIN_ID',
    description: 'chain id of the rollup; must equal the node’s',
    parse: parse.string,
  },
  vm: {
    flag: 'vm-type',
    env: 'VM_TYPE',
    description: 'VM of the rollup: evm, move or wasm',
    parse: parse.oneOf(VMS),
  },
  bech32Prefix: {
    flag: 'bech32-prefix',
    env: 'BECH32_PREFIX',
    description: 'bech32 prefix of the chain’s accounts',
    parse: (raw: string, name: string) => {
      if (!/^[a-z]{1,20}$/.test(raw)) throw new ConfigError(name, `"${raw}" is not a bech32 prefix`);
      return raw;
    },
    default: 'init',
  },
  rpcUrls: {
    flag: 'rpc-url',
    env: 'RPC_URL',
    description: 'CometBFT RPC URLs, comma-separated (rotated, unhealthy ones skipped)',
    parse: nonEmpty(urls),
  },
  restUrls: {
    flag: 'rest-url',
    env: 'REST_URL',
    description: 'Cosmos REST URLs, comma-separated',
    parse: nonEmpty(urls),
  },
  jsonRpcUrls: {
    flag: 'json-rpc-url',
    env: 'JSON_RPC_URL',
    description: 'EVM JSON-RPC URLs, comma-separated (required on evm; empty: unused on move and wasm)',
    parse: urls,
    default: [] as string[],
  },
  ...storeSettings,
  startHeight: {
    flag: 'start-height',
    env: 'START_HEIGHT',
    description: 'first height to index on an empty database; it only ever moves the start forward',
    parse: parse.int(0),
    default: 0,
  },
  internalTx: {
    flag: 'internal-tx',
    env: 'INTERNAL_TX',
    description: 'index EVM internal txs (debug_traceBlockByNumber); evm only',
    parse: parse.bool,
    boolean: true,
    default: null as boolean | null,
    defaultText: 'true on evm',
  },
  richList: {
    flag: 'rich-list',
    env: 'RICH_LIST',
    description: 'keep the EVM rich list (token holders by balance); evm only',
    parse: parse.bool,
    boolean: true,
    default: null as boolean | null,
    defaultText: 'true on evm',
  },
  maxConcurrentRequests: {
    flag: 'max-concurrent-requests',
    env: 'MAX_CONCURRENT_REQUESTS',
    description: 'upper bound of heights fetched at once (the adaptive limit stays below it)',
    parse: parse.int(1, 1000),
    default: 50,
  },
  queryTimeout: {
    flag: 'query-timeout',
    env: 'QUERY_TIMEOUT',
    description: 'timeout of one node request (traces get ten times as long)',
    parse: parse.duration,
    default: 30_000,
  },
  pollInterval: {
    flag: 'poll-interval',
    env: 'POLL_INTERVAL',
    description: 'how often the chain head is polled once the indexer has caught up',
    parse: parse.duration,
    default: 500,
  },
  batchSize: {
    flag: 'batch-size',
    env: 'BATCH_SIZE',
    description: 'most heights written in one database transaction',
    parse: parse.int(1, 10_000),
    default: 100,
  },
  ...metricsSettings(9464),
  ...logSettings,
} satisfies SettingsSpec;

export interface IndexerConfig {
  chainId: string;
  vm: IndexerVm;
  bech32Prefix: string;
  rpcUrls: string[];
  restUrls: string[];
  jsonRpcUrls: string[];
  dbDsn?: string;
  dataDir: string;
  dbSchema?: string;
  startHeight: number;
  internalTx: boolean;
  richList: boolean;
  maxConcurrentRequests: number;
  queryTimeoutMs: number;
  pollIntervalMs: number;
  batchSize: number;
  metrics: { enabled: boolean; host: string; port: number; path: string };
  log: { level: LogLevel; format: LogFormat };
}

/** Reads flags and environment into one typed config; an invalid setting throws a ConfigError naming it. */
export function loadIndexerConfig(source: ConfigSource): IndexerConfig {
  const s = loadSettings(indexerSettings, source);
  if (s.chainId.trim() === '') throw new ConfigError('CHAIN_ID', 'must not be empty');
  const evm = s.vm === 'evm';
  if (evm && s.jsonRpcUrls.length === 0)
    throw new ConfigError('JSON_RPC_URL', 'required when VM_TYPE is evm');
  for (const [name, value] of [
    ['INTERNAL_TX', s.internalTx],
    ['RICH_LIST', s.richList],
  ] as const) {
    if (value && !evm) throw new ConfigError(name, `only available when VM_TYPE is evm (it is ${s.vm})`);
  }
  return {
    chainId: s.chainId.trim(),
    vm: s.vm,
    bech32Prefix: s.bech32Prefix,
    rpcUrls: s.rpcUrls,
    restUrls: s.restUrls,
    jsonRpcUrls: s.jsonRpcUrls,
    dbDsn: s.dbDsn || undefined,
    dataDir: s.dataDir,
    dbSchema: s.dbSchema || undefined,
    startHeight: s.startHeight,
    internalTx: s.internalTx ?? evm,
    richList: s.richList ?? evm,
    maxConcurrentRequests: s.maxConcurrentRequests,
    queryTimeoutMs: s.queryTimeout,
    pollIntervalMs: s.pollInterval,
    batchSize: s.batchSize,
    metrics: { enabled: s.metricsEnabled, host: s.metricsHost, port: s.metricsPort, path: s.metricsPath },
    log: { level: s.logLevel, format: s.logFormat },
  };
}
