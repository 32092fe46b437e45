import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLru } from './lru.js';

/**
 * A short in-memory cache of successful answers, keyed by method and full URL (query order
 * matters, as in rollytics). Routes opt in with `config.cacheTtlMs`; answers carry
 * `X-Cache: hit|miss`. Lists live about a second, single items about ten.
 */
export interface ResponseCacheOptions {
  enabled: boolean;
  size: number;
  onResult?: (result: 'hit' | 'miss') => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How long this route's 200 answers may be served from the response cache. */
    cacheTtlMs?: number;
  }
}

const served = new WeakSet<FastifyRequest>();

export function installResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  if (!options.enabled || options.size <= 0) return;
  const cache = createLru<string>(options.size);
  const ttlOf = (request: FastifyRequest) =>
    request.method === 'GET' ? request.routeOptions.config?.cacheTtlMs : undefined;

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (ttlOf(request) === undefined) return done();
    const body = cache.get(request.url);
    if (body === undefined) return done();
    served.add(request);
    options.onResult?.('hit');
    void reply.header('x-cache', 'hit').type('application/json; charset=utf-8').send(body);
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const ttl = ttlOf(request);
    if (ttl === undefined || served.has(request)) return done(null, payload);
    void reply.header('x-cache', 'miss');
    options.onResult?.('miss');
    if (reply.statusCode === 200 && typeof payload === 'string') cache.set(request.url, payload, ttl);
    done(null, payload);
  });
}
