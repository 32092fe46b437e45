import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'weft/common/logger.js';
import { createByteLru } from 'weft/common/lru.js';
import { type Faults, installFaults } from './faults.js';

export interface NodeServerOptions {
  /** Shared by the servers of a chain so a test can change them at run time. */
  faults?: Faults;
  logger?: Logger;
  /** Bytes of serialised responses kept per server (by height and kind). */
  cacheBytes?: number;
}

export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** A node server's cache of serialised answers, bounded in bytes. */
export const responseCache = (options: NodeServerOptions) =>
  createByteLru<string, string>({ maxBytes: options.cacheBytes ?? DEFAULT_CACHE_BYTES });

/**
 * A Fastify instance as every node surface wants it: no per-request logging (the RPC server is the
 * denominator of the indexer's throughput benchmark), large bodies for JSON-RPC batches, open keep-alive
 * connections closed on `close()`, the fault hook of its stream, and CORS for any origin: a wallet page
 * reads the nodes from the browser, as public nodes allow (CometBFT `cors_allowed_origins = ["*"]`, the
 * REST gateway's `enabled-unsafe-cors`, geth's `--http.corsdomain '*'`).
 */
export function createHttpApp(stream: string, options: NodeServerOptions): FastifyInstance {
  // With a pino instance Fastify types the app by that logger; the servers only need the base logger type.
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 32 * 1024 * 1024,
    forceCloseConnections: true,
    keepAliveTimeout: 30_000,
  }) as unknown as FastifyInstance;
  void app.register(cors, { origin: '*', methods: ['GET', 'POST', 'OPTIONS'] });
  if (options.faults) installFaults(app, options.faults, stream);
  return app;
}

/** Takes every body as a string, whatever its content type; JSON-RPC servers parse (and reject) it themselves. */
export function acceptRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/** `tcp://host:port` or `http://host:port` of a listening server. */
export function serverAddress(app: FastifyInstance, scheme: 'tcp' | 'http'): string | undefined {
  const address = app.server.address();
  if (!address || typeof address === 'string') return undefined;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}
