import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { compiledSchemas, compileSerializer, sharedSchemaController } from './compilers.js';

/** Two servers, each with its own (equal) schema objects, as two chains' APIs register their routes. */
async function server() {
  const app = Fastify({
    schemaController: sharedSchemaController,
    ajv: { customOptions: { verbose: true } },
  });
  app.get(
    '/items',
    {
      schema: {
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }) }),
        response: { 200: Type.Object({ limit: Type.Integer(), items: Type.Array(Type.String()) }) },
      },
    },
    async (request) => ({ limit: (request.query as { limit: number }).limit, items: ['a'], extra: 1 }),
  );
  await app.ready();
  return app;
}

describe('shared schema compilers', () => {
  it('compile an equal schema once, whatever object holds it', () => {
    const schema = () => ({ type: 'object', properties: { n: { type: 'integer' } } }) as const;
    const first = compileSerializer(schema());
    expect(compileSerializer(schema())).toBe(first);
    expect(compileSerializer({ type: 'object', properties: { m: { type: 'integer' } } })).not.toBe(first);
    expect(first({ n: 3, other: 1 })).toBe('{"n":3}');
  });

  it('give each server the same validators and serializers, which still validate and serialize', async () => {
    const before = compiledSchemas();
    const a = await server();
    const afterFirst = compiledSchemas();
    // The querystring's validator and the 200 answer's serializer at least.
    expect(afterFirst - before).toBeGreaterThanOrEqual(2);
    const b = await server();
    expect(compiledSchemas()).toBe(afterFirst);
    for (const app of [a, b]) {
      const ok = await app.inject('/items?limit=5');
      expect([ok.statusCode, ok.json()]).toEqual([200, { limit: 5, items: ['a'] }]);
      expect((await app.inject('/items')).json()).toEqual({ limit: 10, items: ['a'] });
      const bad = await app.inject('/items?limit=500');
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toMatch(/limit/);
    }
    await Promise.all([a.close(), b.close()]);
  });
});
