import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { createByteLru } from '../common/lru.js';

/**
 * A short in-memory cache of successful answers. Routes opt in with `config.cacheTtlMs`; answers
 * carry `X-Cache: hit|miss`. Lists live about a second, single items about ten.
 *
 * The key is the validated request, not its URL: the route, its path parameters and the query
 * parameters its schema knows, in a fixed order, after defaults are applied. Parameters the API
 * ignores neither make entries nor get past the cache, and the whole is bounded in bytes.
 */
export interface ResponseCacheOptions {
  enabled: boolean;
  /** Most answers kept. */
  maxEntries: number;
  /** Most bytes of answers (and keys) kept. */
  maxBytes: number;
  onResult?: (result: 'hit' | 'miss') => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How long this route's 200 answers may be served from the response cache. */
    cacheTtlMs?: number;
    /** The query parameters of the route's schema, in key order (set when the route is added). */
    cacheQuery?: string[];
  }
}

const keys = new WeakMap<FastifyRequest, string>();

/** The query parameter names a route's querystring schema declares, sorted. */
function queryNames(route: RouteOptions): string[] {
  const properties = (route.schema?.querystring as { properties?: Record<string, unknown> } | undefined)
    ?.properties;
  return properties ? Object.keys(properties).sort() : [];
}

function cacheKey(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown> | undefined;
  const names = request.routeOptions.config.cacheQuery ?? [];
  const parts: unknown[] = [request.routeOptions.url, request.params];
  for (const name of names) parts.push(query?.[name] ?? null);
  return JSON.stringify(parts);
}

export function installResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  if (!options.enabled || options.maxEntries <= 0 || options.maxBytes <= 0) return;
  const cache = createByteLru<string, string | Buffer>({
    maxBytes: options.maxBytes,
    maxEntries: options.maxEntries,
  });
  const ttlOf = (request: FastifyRequest) =>
    request.method === 'GET' ? request.routeOptions.config?.cacheTtlMs : undefined;

  app.addHook('onRoute', (route) => {
    if (route.config?.cacheTtlMs !== undefined) route.config.cacheQuery = queryNames(route);
  });

  // After validation: the key is made of the values the handler will see.
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (ttlOf(request) === undefined) return;
    const key = cacheKey(request);
    const body = cache.get(key);
    if (body === undefined) {
      keys.set(request, key);
      return;
    }
    options.onResult?.('hit');
    return reply.header('x-cache', 'hit').type('application/json; charset=utf-8').send(body);
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const key = keys.get(request);
    if (key === undefined) return done(null, payload);
    void reply.header('x-cache', 'miss');
    options.onResult?.('miss');
    if (reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      cache.set(key, payload, { ttl: ttlOf(request) });
    }
    done(null, payload);
  });
}
