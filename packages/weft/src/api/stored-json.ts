import type { Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { compileSerializer } from './compilers.js';

/**
 * Tx and EVM tx records are stored as the JSON text the indexer rendered (key order kept), so the
 * API splices that text into its answers instead of parsing and re-serialising it. A route that
 * does so serialises the rest of its answer from its response schema as usual; the schema still
 * describes the whole answer (and the tests validate every answer against it).
 *
 * The records arrive as UTF-8 bytes and the answer is assembled as bytes (one copy of each record).
 * Joined into a string, a 100-record page took 10 times as long, and sending a string encodes it again.
 */

/** Stands for a record of type T, as stored JSON text in UTF-8 bytes. */
export const storedAs = <T>(json: Buffer): T => json as unknown as T;

const COMMA = Buffer.from(',');

/** The route's serializer: `key` holds stored JSON text (one record, or an array of them). */
export function storedRecordsSerializer(key: string): FastifySerializerCompiler<unknown> {
  return ({ schema, httpStatus }) => {
    const object = schema as { properties?: Record<string, { type?: string }>; required?: string[] };
    const stored = object.properties?.[key];
    if (httpStatus !== '200' || !stored) return compileSerializer(schema as Schema);
    const { [key]: _, ...others } = object.properties!;
    const rest = compileSerializer({
      ...(object as Schema & object),
      properties: others,
      required: (object.required ?? []).filter((name) => name !== key),
    } as Schema);
    const list = stored.type === 'array';
    const open = Buffer.from(list ? `{"${key}":[` : `{"${key}":`);
    const close = list ? Buffer.from(']') : undefined;
    const serialize = (data: Record<string, unknown>): Buffer => {
      const parts: Buffer[] = [open];
      if (list) {
        (data[key] as Buffer[]).forEach((record, i) => {
          if (i > 0) parts.push(COMMA);
          parts.push(record);
        });
        parts.push(close!);
      } else parts.push(data[key] as Buffer);
      const tail = rest(data);
      parts.push(Buffer.from(tail === '{}' ? '}' : `,${tail.slice(1)}`));
      return Buffer.concat(parts);
    };
    // Fastify sends a Buffer as it is; its types only name strings.
    return serialize as unknown as (data: unknown) => string;
  };
}
