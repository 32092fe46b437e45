import type { FastifyCorsOptions } from '@fastify/cors';
import type { CorsConfig } from './config.js';

/** `*.example.com` matches the subdomains of example.com (any scheme and port), as rollytics' CORS does. */
function originPattern(origin: string): string | RegExp {
  if (!origin.startsWith('*.')) return origin.replace(/\/+$/, '');
  const domain = origin.slice(2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^[a-z][a-z0-9+.-]*://([a-z0-9-]+\\.)+${domain}(:\\d+)?$`, 'i');
}

/**
 * @fastify/cors options from CORS_*: `*` allows any origin (credentials are then forced off),
 * requests without an Origin pass untouched, preflights are answered without being strict.
 */
export function corsOptions(config: CorsConfig): FastifyCorsOptions {
  const any = config.allowOrigins.length === 0 || config.allowOrigins.includes('*');
  return {
    origin: any ? '*' : config.allowOrigins.map(originPattern),
    methods: config.allowMethods,
    allowedHeaders: config.allowHeaders,
    exposedHeaders: config.exposeHeaders.length > 0 ? config.exposeHeaders : undefined,
    credentials: any ? false : config.allowCredentials,
    maxAge: config.maxAgeSeconds > 0 ? config.maxAgeSeconds : undefined,
    strictPreflight: false,
  };
}
