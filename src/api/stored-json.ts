import fastJson, { type Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

/**
 * Tx and EVM tx records are stored as the JSON text the indexer rendered (key order kept), so the
 * API splices that text into its answers instead of parsing and re-serialising it. A route that
 * does so serialises the rest of its answer from its response schema as usual; the schema still
 * describes the whole answer (and the tests validate every answer against it).
 */

/** Stands for a record of type T, as stored JSON text. */
export const storedAs = <T>(json: string): T => json as unknown as T;

/** The route's serializer: `key` holds stored JSON text (one record, or an array of them). */
export function storedRecordsSerializer(key: string): FastifySerializerCompiler<unknown> {
  return ({ schema, httpStatus }) => {
    const object = schema as { properties?: Record<string, { type?: string }>; required?: string[] };
    const stored = object.properties?.[key];
    if (httpStatus !== '200' || !stored) return fastJson(schema as Schema);
    const { [key]: _, ...others } = object.properties!;
    const rest = fastJson({
      ...(object as Schema & object),
      properties: others,
      required: (object.required ?? []).filter((name) => name !== key),
    } as Schema);
    const list = stored.type === 'array';
    return (data: Record<string, unknown>) => {
      const records = data[key];
      const head = list ? `{"${key}":[${(records as string[]).join(',')}]` : `{"${key}":${records as string}`;
      const tail = rest(data);
      return tail === '{}' ? `${head}}` : `${head},${tail.slice(1)}`;
    };
  };
}
