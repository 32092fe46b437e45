import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, LogController } from 'fastify';
import { packageVersion } from '../../common/build.js';
import { installCompression } from '../../common/http-compression.js';
import { frameworkErrors, installHttpErrors } from '../../common/http-errors.js';
import { createApiMetrics, installRequestMetrics } from '../../common/http-metrics.js';
import { type Logger, silentLogger } from '../../common/logger.js';
import { createMetricsRegistry, type Registry } from '../../common/metrics.js';
import { createOpHookAccounts } from '../accounts/op-hook-accounts.js';
import { createHopGraph } from '../graph/hops.js';
import type { ChainFacts } from '../graph/plan.js';
import { createChainFacts } from '../registry/facts.js';
import type { RouterRegistry } from '../registry/types.js';
import type { RouterContext } from './context.js';
import { registerFungibleRoutes } from './routes/fungible.js';
import { registerInfoRoutes } from './routes/info.js';
import { registerNftRoutes } from './routes/nft.js';

/** Route plugins of other parts (tracking), mounted with the router's context as options. */
export type RouterPlugin = FastifyPluginAsync<RouterContext>;

export interface RouterServerOptions {
  registry: RouterRegistry;
  /** Node facts (bridge timing, OFT quotes); absent: read from the registry's nodes. */
  facts?: ChainFacts;
  logger?: Logger;
  metrics?: Registry;
  /** Extra route plugins (e.g. `/v2/tx/track` and `/v2/tx/status`). */
  plugins?: RouterPlugin[];
  nodeTimeoutMs?: number;
  /** The IBC timeout of a `/msgs` request that names none, s (300, Skip's, by default). */
  ibcTimeoutSeconds?: number;
  /**
   * The key that creates a hook signer's missing account on the hook chain, and its cap of creations a
   * minute; absent: `/op-hook` refuses a signer with no account.
   */
  opHookFunder?: { privateKey: string; perMinute: number };
}

export interface RouterServer {
  app: FastifyInstance;
  context: RouterContext;
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** Headers browser wallets send: InterwovenKit adds its version to every bridge request. */
const CORS_HEADERS = ['content-type', 'authorization', 'x-request-id', 'interwovenkit-version'];

export async function createRouterServer(options: RouterServerOptions): Promise<RouterServer> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    ajv: { customOptions: { verbose: true, coerceTypes: 'array', removeAdditional: false } },
    frameworkErrors,
    bodyLimit: 256 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }) as unknown as FastifyInstance;
  // Every body the router takes is a JSON object: another content type is a 415 that says so, not a
  // text body failing its schema.
  app.removeContentTypeParser('text/plain');

  const ownFacts = options.facts ? undefined : createChainFacts(options.registry);
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 5000;
  const opHookAccounts = createOpHookAccounts({
    funder: options.opHookFunder,
    timeoutMs: nodeTimeoutMs,
    logger: (options.logger ?? silentLogger()).child({ part: 'op-hook-funder' }),
  });
  const context: RouterContext = {
    registry: options.registry,
    graph: createHopGraph(options.registry),
    facts: options.facts ?? ownFacts!,
    nodeTimeoutMs,
    ibcTimeoutSeconds: options.ibcTimeoutSeconds ?? 300,
    opHookAccounts,
  };
  if (ownFacts) app.addHook('onClose', async () => ownFacts.close());
  app.addHook('onClose', async () => opHookAccounts.close());

  const metricsRegistry = options.metrics ?? createMetricsRegistry();
  installHttpErrors(app);
  installRequestMetrics(app, createApiMetrics(metricsRegistry));
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: CORS_HEADERS,
    exposedHeaders: ['x-request-id'],
    strictPreflight: false,
  });
  await installCompression(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'weft router API',
        description:
          'Skip Go API v2 wire format (snake_case JSON, amounts as base-unit decimal strings) with the Initia ' +
          'extensions. Routes move one asset across chains over IBC, OPinit and OFT, and `/nft` sends NFTs over ICS-721; ' +
          "the router never broadcasts a user's transfer (with a funder key it creates a first-time op-hook signer's account). " +
          'Errors are JSON {code, message, details} with a gRPC code, and `info` on route errors.',
        version: packageVersion(),
      },
      tags: [{ name: 'Info' }, { name: 'Fungible' }, { name: 'NFT' }, { name: 'Tracking' }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/swagger' });
  app.get('/swagger/doc.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.type(metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });

  registerInfoRoutes(app, context);
  registerFungibleRoutes(app, context);
  registerNftRoutes(app, context);
  for (const plugin of options.plugins ?? []) await app.register(plugin, context);
  await app.ready();

  return {
    app,
    context,
    listen: (host, port) => app.listen({ host, port }),
    close: () => app.close(),
  };
}
