import type { Schema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { type RecordJson, writeRecordJson } from '../store/record-codec.js';
import { compileSerializer } from './compilers.js';

/**
 * Tx and EVM tx records are stored as the JSON text the indexer rendered (key order kept), so the
 * API splices that text into its answers instead of parsing and re-serialising it. A route that
 * does so serialises the rest of its answer from its response schema as usual; the schema still
 * describes the whole answer (and the tests validate every answer against it).
 *
 * The answer is assembled as bytes, in one buffer of its size: each record's text is written into it
 * once, inflated there when it comes as the store keeps it. Joined into a string, a 100-record page took
 * 10 times as long, and sending a string encodes it again.
 */

/** Stands for a record of type T, as its stored JSON text. */
export const storedAs = <T>(json: RecordJson): T => json as unknown as T;

const COMMA = 0x2c;

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
    const serialize = (data: Record<string, unknown>): Buffer => {
      const records = list ? (data[key] as RecordJson[]) : [data[key] as RecordJson];
      const rendered = rest(data);
      // The rest of the answer follows the records: `]` and it, or it alone (at least `}`), so each
      // record has the byte after it free to write into.
      const tail = `${list ? ']' : ''}${rendered === '{}' ? '}' : `,${rendered.slice(1)}`}`;
      let size = open.length + Buffer.byteLength(tail) + Math.max(0, records.length - 1);
      for (const record of records) size += record.length;
      const out = Buffer.allocUnsafe(size);
      let at = open.copy(out, 0);
      records.forEach((record, i) => {
        if (i > 0) out[at++] = COMMA;
        at = writeRecordJson(record, out, at);
      });
      out.write(tail, at);
      return out;
    };
    // Fastify sends a Buffer as it is; its types only name strings.
    return serialize as unknown as (data: unknown) => string;
  };
}
