import { decodeRecord1, RECORD_FORMAT_1 } from './formats/record-1.js';
import { decodeRecord2, encodeRecord2, RECORD_FORMAT_2 } from './formats/record-2.js';
import { malformed, StoredValueError, unknownFormat } from './formats/stored-value-error.js';

/**
 * Tx and EVM tx records are stored as their JSON text compressed (raw deflate with a preset
 * dictionary), not as `json`: PostgreSQL compresses a value only past about 2 KB and with pglz, so
 * the typical 1–5 KB record took about twice the room. The text comes back byte for byte, key order
 * included; decoding a 4.5 KB record costs about 10 µs.
 *
 * A stored record's first byte is its format, and each format is a file of `formats/` that does not
 * change: 1 (`record-1.ts`, read only) and 2 (`record-2.ts`, written now). A read takes the format
 * the value names, so a store keeps its older records as they are; a byte no format has is an error
 * (`WEFT_ERR_STORE_FORMAT_UNKNOWN`), never text inflated the wrong way. A new format (a better
 * dictionary, another compressor) is a new file and byte, and the writer moves to it here.
 */

/** A record already serialised: it crossed from another thread as its JSON text. */
export class RecordText {
  constructor(readonly text: string) {}
}

/** A record's JSON text: a `RecordText`'s own, else `JSON.stringify`'s. */
export const recordText = (record: unknown): string =>
  record instanceof RecordText ? record.text : JSON.stringify(record);

export const encodeRecord = (json: string): Buffer => encodeRecord2(Buffer.from(json, 'utf8'));

/** The record's JSON text as UTF-8 bytes: what the API splices into its answers. */
export function decodeRecordBytes(stored: Uint8Array): Buffer {
  const view = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  try {
    if (view[0] === RECORD_FORMAT_2) return decodeRecord2(view);
    if (view[0] === RECORD_FORMAT_1) return decodeRecord1(view);
  } catch (err) {
    throw err instanceof StoredValueError ? err : malformed('record', 'does not inflate', err);
  }
  throw unknownFormat('record', view[0]);
}

export const decodeRecord = (stored: Uint8Array): string => decodeRecordBytes(stored).toString('utf8');
