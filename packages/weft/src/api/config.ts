import {
  type ConfigSource,
  hostSetting,
  loadSettings,
  logSettings,
  metricsSettings,
  parse,
  type SettingsSpec,
} from '../common/config.js';
import { ConfigError } from '../common/errors.js';
import type { LogFormat, LogLevel } from '../common/logger.js';
import { DEFAULT_POOL_SIZE } from '../store/db.js';
import { storeSettings } from '../store/settings.js';

/** Settings of `weft api`: rollytics' environment names where it has them, and matching flags. */

const VMS = ['evm', 'move', 'wasm'] as const;
export type ApiVm = (typeof VMS)[number];

const list = parse.listOf(parse.string);

export interface ApiCacheConfig {
  /** The response cache. */
  enabled: boolean;
  /** Most answers in the response cache; also the proposer and denom caches' entries. */
  size: number;
  /** Megabytes of answers in the response cache (absent: the default). */
  responseMb?: number;
  listTtlMs: number;
  itemTtlMs: number;
  /** Megabytes of the tx record cache (0: off; absent: the default). */
  recordMb?: number;
}

/** How the API's reads use the store, in `weft api` and in an API server built without these options. */
export interface StoreLimits {
  /** PostgreSQL cancels a read running longer (0: no limit). */
  statementTimeoutMs: number;
  /** Longest wait for a store connection before a 503 with Retry-After. */
  waitTimeoutMs: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = { statementTimeoutMs: 5000, waitTimeoutMs: 2000 };

/** The caches of `weft api`, and of an API server built without cache options. */
export const DEFAULT_CACHE = {
  enabled: true,
  size: 10_000,
  responseMb: 64,
  listTtlMs: 1000,
  itemTtlMs: 10_000,
  recordMb: 96,
} satisfies Required<ApiCacheConfig>;

export const apiSettings = {
  host: hostSetting,
  port: { flag: 'port', env: 'PORT', description: 'HTTP port', parse: parse.int(0, 65_535), default: 8080 },
  chainId: {
    flag: 'chain-id',
    env: 'CHAIN_ID',
    description: 'chain id; unset: the one the store holds (set: must match it)',
    parse: parse.string,
    default: '',
  },
  vm: {
    flag: 'vm-type',
    env: 'VM_TYPE',
    description: 'evm, move or wasm; unset: the store’s',
    parse: parse.oneOf(VMS) as (raw: string, name: string) => ApiVm | '',
    default: '' as ApiVm | '',
  },
  bech32Prefix: {
    flag: 'bech32-prefix',
    env: 'BECH32_PREFIX',
    description: 'bech32 prefix of accounts; unset: the store’s (or init)',
    parse: parse.string,
    default: '',
  },
  restUrls: {
    flag: 'rest-url',
    env: 'REST_URL',
    description:
      'Cosmos REST URLs, comma-separated: block proposers’ monikers and, on evm, denom → ERC20 for the rich list (empty: served without them)',
    parse: parse.listOf(parse.url),
    default: [] as string[],
  },
  restTimeout: {
    flag: 'rest-timeout',
    env: 'REST_TIMEOUT',
    description: 'timeout of one REST lookup; a slow or failing REST never fails a block list',
    parse: parse.duration,
    default: 2000,
  },
  internalTx: {
    flag: 'internal-tx',
    env: 'INTERNAL_TX',
    description: 'serve EVM internal txs (evm only)',
    parse: parse.bool,
    boolean: true,
    default: true,
  },
  ...storeSettings,
  dbPoolSize: {
    flag: 'db-pool-size',
    env: 'DB_POOL_SIZE',
    description: 'PostgreSQL connections of this process',
    parse: parse.int(1, 1000),
    default: DEFAULT_POOL_SIZE,
    defaultText: '2 × cores, 3 to 10',
  },
  dbStatementTimeout: {
    flag: 'db-statement-timeout',
    env: 'DB_STATEMENT_TIMEOUT',
    description:
      'PostgreSQL stops a read running longer and the request gets a 503 "query too expensive" (0: no limit)',
    parse: parse.duration,
    default: DEFAULT_STORE_LIMITS.statementTimeoutMs,
  },
  dbWaitTimeout: {
    flag: 'db-wait-timeout',
    env: 'DB_WAIT_TIMEOUT',
    description: 'how long a request waits for a store connection before a 503 with Retry-After',
    parse: parse.duration,
    default: DEFAULT_STORE_LIMITS.waitTimeoutMs,
  },
  corsEnabled: {
    flag: 'cors-enabled',
    env: 'CORS_ENABLED',
    description: 'answer CORS',
    parse: parse.bool,
    boolean: true,
    default: false,
  },
  corsAllowOrigins: {
    flag: 'cors-allow-origins',
    env: 'CORS_ALLOW_ORIGINS',
    description: 'allowed origins, comma-separated; * for any, *.example.com for subdomains',
    parse: list,
    default: ['*'],
  },
  corsAllowMethods: {
    flag: 'cors-allow-methods',
    env: 'CORS_ALLOW_METHODS',
    description: 'Access-Control-Allow-Methods',
    parse: list,
    default: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'],
  },
  corsAllowHeaders: {
    flag: 'cors-allow-headers',
    env: 'CORS_ALLOW_HEADERS',
    description: 'Access-Control-Allow-Headers',
    parse: list,
    default: ['Origin', 'Content-Type', 'Accept', 'Authorization', 'X-Requested-With'],
  },
  corsExposeHeaders: {
    flag: 'cors-expose-headers',
    env: 'CORS_EXPOSE_HEADERS',
    description: 'Access-Control-Expose-Headers (empty: none)',
    parse: list,
    default: [] as string[],
  },
  corsAllowCredentials: {
    flag: 'cors-allow-credentials',
    env: 'CORS_ALLOW_CREDENTIALS',
    description: 'Access-Control-Allow-Credentials (always off with the * origin)',
    parse: parse.bool,
    boolean: true,
    default: false,
  },
  corsMaxAge: {
    flag: 'cors-max-age',
    env: 'CORS_MAX_AGE',
    description: 'Access-Control-Max-Age in seconds (0: not sent)',
    parse: parse.int(0),
    default: 0,
  },
  cacheEnabled: {
    flag: 'cache-enabled',
    env: 'CACHE_ENABLED',
    description: 'keep answers briefly in memory (X-Cache: hit|miss|stale)',
    parse: parse.bool,
    boolean: true,
    default: DEFAULT_CACHE.enabled,
  },
  cacheSize: {
    flag: 'cache-size',
    env: 'CACHE_SIZE',
    description: 'most answers in the response cache; also the entries of the proposer and denom caches',
    parse: parse.int(0),
    default: DEFAULT_CACHE.size,
  },
  responseCacheSize: {
    flag: 'response-cache-size',
    env: 'RESPONSE_CACHE_SIZE',
    description: 'megabytes of answers kept in the response cache',
    parse: parse.int(0, 65_536),
    default: DEFAULT_CACHE.responseMb,
  },
  cacheListTtl: {
    flag: 'cache-list-ttl',
    env: 'CACHE_LIST_TTL',
    description: 'how long lists and /status are cached',
    parse: parse.duration,
    default: DEFAULT_CACHE.listTtlMs,
  },
  cacheItemTtl: {
    flag: 'cache-item-ttl',
    env: 'CACHE_ITEM_TTL',
    description:
      'how long single items (by hash, block by height, collection, rich list, avg block time) are cached',
    parse: parse.duration,
    default: DEFAULT_CACHE.itemTtlMs,
  },
  recordCacheSize: {
    flag: 'record-cache-size',
    env: 'RECORD_CACHE_SIZE',
    description:
      'megabytes of tx records kept between pages (records never change; keys and totals are always read); 0: off',
    parse: parse.int(0, 65_536),
    default: DEFAULT_CACHE.recordMb,
  },
  ...metricsSettings(9465),
  ...logSettings,
} satisfies SettingsSpec;

export interface CorsConfig {
  enabled: boolean;
  allowOrigins: string[];
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  allowCredentials: boolean;
  maxAgeSeconds: number;
}

export interface ApiConfig {
  host: string;
  port: number;
  /** What the operator said; the store fills the gaps at start (`resolveChain`). */
  chainId?: string;
  vm?: ApiVm;
  bech32Prefix?: string;
  restUrls: string[];
  restTimeoutMs: number;
  internalTx: boolean;
  db: { dsn?: string; dataDir: string; schema?: string; poolSize: number } & StoreLimits;
  cors: CorsConfig;
  cache: ApiCacheConfig;
  metrics: { enabled: boolean; host: string; port: number; path: string };
  log: { level: LogLevel; format: LogFormat };
}

export function loadApiConfig(source: ConfigSource): ApiConfig {
  const s = loadSettings(apiSettings, source);
  if (s.bech32Prefix !== '' && !/^[a-z]{1,20}$/.test(s.bech32Prefix)) {
    throw new ConfigError('BECH32_PREFIX', `"${s.bech32Prefix}" is not a bech32 prefix`);
  }
  return {
    host: s.host,
    port: s.port,
    chainId: s.chainId.trim() || undefined,
    vm: s.vm || undefined,
    bech32Prefix: s.bech32Prefix || undefined,
    restUrls: s.restUrls,
    restTimeoutMs: s.restTimeout,
    internalTx: s.internalTx,
    db: {
      dsn: s.dbDsn || undefined,
      dataDir: s.dataDir,
      schema: s.dbSchema || undefined,
      poolSize: s.dbPoolSize,
      statementTimeoutMs: s.dbStatementTimeout,
      waitTimeoutMs: s.dbWaitTimeout,
    },
    cors: {
      enabled: s.corsEnabled,
      allowOrigins: s.corsAllowOrigins,
      allowMethods: s.corsAllowMethods,
      allowHeaders: s.corsAllowHeaders,
      exposeHeaders: s.corsExposeHeaders,
      allowCredentials: s.corsAllowCredentials,
      maxAgeSeconds: s.corsMaxAge,
    },
    cache: {
      enabled: s.cacheEnabled,
      size: s.cacheSize,
      responseMb: s.responseCacheSize,
      listTtlMs: s.cacheListTtl,
      itemTtlMs: s.cacheItemTtl,
      recordMb: s.recordCacheSize,
    },
    metrics: { enabled: s.metricsEnabled, host: s.metricsHost, port: s.metricsPort, path: s.metricsPath },
    log: { level: s.logLevel, format: s.logFormat },
  };
}
