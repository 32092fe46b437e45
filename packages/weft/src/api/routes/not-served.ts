import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { NotServedError } from '../errors.js';

/**
 * Paths a chain of another VM (or with internal txs off) does not serve answer a 404 that says
 * why, instead of the generic unknown-route one. They are left out of the OpenAPI document.
 */
export function registerNotServed(app: FastifyInstance, prefixes: string[], message: string): void {
  const handler = async () => {
    throw new NotServedError(message);
  };
  for (const prefix of prefixes) {
    app.get(prefix, { schema: { hide: true } }, handler);
    app.get(`${prefix}/*`, { schema: { hide: true } }, handler);
  }
}
