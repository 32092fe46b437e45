import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import { createRestClient } from '../chain/rest-client.js';
import { type BuildInfo, commitHashSoon, packageVersion } from '../common/build.js';
import { InvalidArgumentError } from '../common/errors.js';
import { echo } from '../common/http.js';
import { installCompression } from '../common/http-compression.js';
import { frameworkErrors, installHttpErrors } from '../common/http-errors.js';
import { createApiMetrics, installRequestMetrics } from '../common/http-metrics.js';
import type { Logger } from '../common/logger.js';
import { createMetricsRegistry, type Registry } from '../common/metrics.js';
import type { Db } from '../store/db.js';
import { createRecordCache } from '../store/read/record-cache.js';
import { createChainHead } from './chain-head.js';
import { sharedSchemaController } from './compilers.js';
import {
  type ApiCacheConfig,
  type CorsConfig,
  DEFAULT_CACHE,
  DEFAULT_STORE_LIMITS,
  type StoreLimits,
} from './config.js';
import type { ApiContext, ChainContext } from './context.js';
import { corsOptions } from './cors.js';
import { createDenomResolver } from './denoms.js';
import { RULES } from './errors.js';
import { createGate, gatedDb } from './gate.js';
import { createIndexedHead } from './indexed-head.js';
import { createProposerDirectory } from './proposers.js';
import { installResponseCache } from './response-cache.js';
import { registerBlockRoutes } from './routes/blocks.js';
import { registerEvmTxRoutes } from './routes/evm-txs.js';
import { registerInternalTxRoutes } from './routes/internal-txs.js';
import { registerCollectionRoutes } from './routes/nft-collections.js';
import { registerTokenRoutes } from './routes/nft-tokens.js';
import { registerNotServed } from './routes/not-served.js';
import { registerRichListRoutes } from './routes/rich-list.js';
import { registerStatusRoutes } from './routes/status.js';
import { registerTxRoutes } from './routes/txs.js';

export interface ApiServerOptions {
  db: Db;
  /** Statements the API's reads may run at once (default: all of `db`'s connections but one, kept for `/status`). */
  storeSlots?: number;
  /** How long a read waits for a slot (`DB_WAIT_TIMEOUT`); the statement timeout is the Db's. */
  storeLimits?: StoreLimits;
  chain: ChainContext;
  /** Chain REST for proposer monikers and (EVM) denom → ERC20; absent: no lookups. */
  restUrls?: string[];
  restTimeoutMs?: number;
  cors?: CorsConfig;
  cache?: ApiCacheConfig;
  logger?: Logger;
  /** Request metrics go here (the CLI serves it); absent: a private registry. */
  registry?: Registry;
  build?: BuildInfo;
  /** Adds routes of the embedding program (e.g. a landing page, a benchmark's baseline) before start. */
  configure?: (app: FastifyInstance) => void;
}

export interface ApiServer {
  app: FastifyInstance;
  /** Starts listening; returns the base URL. */
  listen(host: string, port: number): Promise<string>;
  /** Stops accepting, lets requests in flight finish, closes idle connections. The Db stays open. */
  close(): Promise<void>;
}

const TAGS = ['Status', 'Block', 'Tx', 'EVM Tx', 'EVM Internal Tx', 'NFT', 'Rich List'];

/** `x-request-id` is echoed when it looks like an id, otherwise one is made. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

const BOOLEAN_WORDS: Record<string, string> = {
  true: 'true',
  t: 'true',
  '1': 'true',
  false: 'false',
  f: 'false',
  '0': 'false',
};
const BOOLEAN_PARAMS = ['pagination.count_total', 'pagination.reverse', 'is_signer'];
/** Integers Ajv would also coerce from `1e3`, `0x10` or ` 7`: only plain digits are taken. */
const DIGIT_PARAMS: Array<['query' | 'params', string]> = [
  ['query', 'pagination.limit'],
  ['query', 'pagination.offset'],
  ['params', 'height'],
];

/**
 * Query spellings the schemas would reject but rollytics accepts (Go's boolean words `1`, `T`,
 * `True`…; `order_by` in any case; empty values meaning "not given"), and integer spellings the
 * schemas would accept but are not plain numbers.
 */
function normaliseRequest(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (query) {
    for (const [name, value] of Object.entries(query)) if (value === '') delete query[name];
    for (const name of BOOLEAN_PARAMS) {
      const value = query[name];
      if (typeof value === 'string') query[name] = BOOLEAN_WORDS[value.toLowerCase()] ?? value;
    }
    if (typeof query.order_by === 'string') query.order_by = query.order_by.toLowerCase();
  }
  for (const [part, name] of DIGIT_PARAMS) {
    const value = (request[part] as Record<string, unknown> | undefined)?.[name];
    if (typeof value === 'string' && !/^-?[0-9]+$/.test(value)) {
      throw new InvalidArgumentError(`invalid value for ${name}: ${echo(value)} (${RULES[name]})`);
    }
  }
}

/** The record cache, sized in megabytes of what it holds (the stored records and their entries; 0: none). */
const recordCache = (megabytes: number) =>
  megabytes > 0 ? createRecordCache({ maxBytes: megabytes * 1024 * 1024 }) : undefined;

export async function createApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const { chain } = options;
  const cache: ApiCacheConfig = options.cache ?? DEFAULT_CACHE;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    ajv: { customOptions: { verbose: true } },
    schemaController: sharedSchemaController,
    frameworkErrors,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }) as unknown as FastifyInstance;

  // A read-only API: any body is read (up to a limit) and ignored, so other methods meet the 404.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, _body, done) =>
    done(null, undefined),
  );

  const rest = options.restUrls?.length
    ? createRestClient(options.restUrls, { timeoutMs: options.restTimeoutMs ?? 2000 })
    : undefined;
  const logger = app.log as unknown as Logger;
  const gate = createGate({
    slots: Math.max(1, options.storeSlots ?? options.db.connections - 1),
    maxWaitMs: (options.storeLimits ?? DEFAULT_STORE_LIMITS).waitTimeoutMs,
    maxWaiting: 1000,
    resource: 'a store connection',
  });
  const ctx: ApiContext = {
    db: gatedDb(options.db, gate),
    statusDb: options.db,
    chain,
    head: createChainHead(rest),
    proposers: createProposerDirectory({ rest, cacheSize: Math.max(cache.size, 100), logger }),
    denoms: createDenomResolver({ rest, cacheSize: Math.max(cache.size, 100) }),
    ttl: { listMs: cache.listTtlMs, itemMs: cache.itemTtlMs },
    records: recordCache(cache.recordMb ?? DEFAULT_CACHE.recordMb),
    build: options.build ?? { version: packageVersion(), commitHash: commitHashSoon() },
  };

  const metrics = createApiMetrics(options.registry ?? createMetricsRegistry());
  installHttpErrors(app, { rules: RULES });
  installRequestMetrics(app, metrics);
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });
  app.addHook('preValidation', async (request) => normaliseRequest(request));
  if (options.cors?.enabled) await app.register(cors, corsOptions(options.cors));
  await installCompression(app);
  installResponseCache(app, {
    enabled: cache.enabled,
    maxEntries: cache.size,
    maxBytes: (cache.responseMb ?? DEFAULT_CACHE.responseMb) * 1024 * 1024,
    head: createIndexedHead(options.db),
    onResult: (result) => metrics.cache.inc({ result }),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: `weft indexer API — ${chain.chainId}`,
        description:
          `Read API of a ${chain.vm} rollup. Errors are JSON {code, message, details} with a gRPC code. ` +
          'Lists page with pagination.key (the next_key of the previous page) or pagination.offset.',
        version: ctx.build.version,
      },
      tags: TAGS.map((name) => ({ name })),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/swagger' });
  app.get('/swagger/doc.json', { schema: { hide: true } }, async () => app.swagger());

  registerStatusRoutes(app, ctx);
  registerBlockRoutes(app, ctx);
  registerTxRoutes(app, ctx);
  registerCollectionRoutes(app, ctx);
  registerTokenRoutes(app, ctx);
  if (chain.vm === 'evm') {
    registerEvmTxRoutes(app, ctx);
    registerRichListRoutes(app, ctx);
    if (chain.internalTx) registerInternalTxRoutes(app, ctx);
    else
      registerNotServed(
        app,
        ['/indexer/tx/v1/evm-internal-txs'],
        'internal txs are not served on this chain (INTERNAL_TX is off)',
      );
  } else {
    registerNotServed(
      app,
      ['/indexer/tx/v1/evm-txs', '/indexer/tx/v1/evm-internal-txs'],
      'evm routes are not available on this chain',
    );
    registerNotServed(
      app,
      ['/indexer/richlist/v1'],
      `the rich list is only available on evm chains (this chain is ${chain.vm})`,
    );
  }
  options.configure?.(app);
  await app.ready();

  return {
    app,
    async listen(host, port) {
      return app.listen({ host, port });
    },
    close: () => app.close(),
  };
}
