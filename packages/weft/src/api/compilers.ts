import { AjvCompiler } from '@fastify/ajv-compiler';
import fastJson, { type Schema } from 'fast-json-stringify';
import type { FastifyServerOptions } from 'fastify';

/**
 * The API's schema compilers, shared by every API server of the process. Fastify compiles each route's
 * validators (Ajv) and response serializers (fast-json-stringify) per server, and the dev stack runs an
 * API per chain: the same schemas compiled four times were about a second of CPU on the main thread at
 * its start. A compiled validator or serializer depends only on its schema (and, for a validator, the
 * part of the request it checks and Ajv's options), so one compiled for an equal schema is reused.
 * A validator keeps its last errors on itself, which Fastify reads right after the call that set them,
 * so servers of one thread can share it.
 */

type Compiled = (...args: never[]) => unknown;

const compiled = new Map<string, Compiled>();

function once<F extends Compiled>(key: string, compile: () => F): F {
  let fn = compiled.get(key) as F | undefined;
  if (fn === undefined) {
    fn = compile();
    compiled.set(key, fn);
  }
  return fn;
}

/** How many validators and serializers the process has compiled through these compilers. */
export const compiledSchemas = (): number => compiled.size;

/** fast-json-stringify's serializer of `schema`, compiled once per process for equal schemas. */
export const compileSerializer = (schema: Schema): ((data: unknown) => string) =>
  once(`serializer\n${JSON.stringify(schema)}`, () => fastJson(schema));

type ValidatorBuilder = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;
type SerializerBuilder = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

// One Ajv per set of options for every server, as Fastify's default makes one per server.
const ajvPool = AjvCompiler();

const buildValidator: ValidatorBuilder = (externalSchemas, ajvOptions) => {
  const compile = ajvPool(externalSchemas, ajvOptions as never);
  const context = JSON.stringify([
    externalSchemas,
    (ajvOptions as { customOptions?: unknown })?.customOptions,
  ]);
  return (route) =>
    once(`validator\n${context}\n${route.httpPart}\n${JSON.stringify(route.schema)}`, () =>
      compile(route as never),
    );
};

const buildSerializer: SerializerBuilder = (externalSchemas) => {
  const external = externalSchemas as Record<string, unknown> | undefined;
  // Shared schemas added to a server (none in the API) would make a serializer that server's own.
  if (external && Object.keys(external).length > 0)
    return ({ schema }) => fastJson(schema as Schema, { schema: external as never });
  return ({ schema }) => compileSerializer(schema as Schema);
};

/** Fastify's `schemaController` option of an API server. */
export const sharedSchemaController = {
  compilersFactory: { buildValidator, buildSerializer },
} satisfies FastifyServerOptions['schemaController'];
