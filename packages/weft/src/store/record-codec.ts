import { decodeRecord1, RECORD_FORMAT_1 } from './formats/record-1.js';
import {
  decodeRecord2,
  encodeRecord2,
  inflateRecord2Into,
  RECORD_FORMAT_2,
  record2Head,
} from './formats/record-2.js';
import { malformed, StoredValueError, unknownFormat } from './formats/stored-value-error.js';

/**
 * Tx and EVM tx records are stored as their JSON text compressed (raw deflate with a preset
 * dictionary), not as `json`: PostgreSQL compresses a value only past about 2 KB and with pglz, so
 * the typical 1–5 KB record took about twice the room. The text comes back byte for byte, key order
 * included; decoding a 2.3 KB record costs about 4 µs.
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

const viewOf = (stored: Uint8Array) => Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);

/** Runs a decode, its zlib errors as the store's. */
function decoding<T>(decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    throw err instanceof StoredValueError ? err : malformed('record', 'does not inflate', err);
  }
}

/** The record's JSON text as UTF-8 bytes. */
export function decodeRecordBytes(stored: Uint8Array): Buffer {
  const view = viewOf(stored);
  if (view[0] === RECORD_FORMAT_2) return decoding(() => decodeRecord2(view));
  if (view[0] === RECORD_FORMAT_1) return decoding(() => decodeRecord1(view));
  throw unknownFormat('record', view[0]);
}

/**
 * A stored record of format 2 whose text is inflated where it is written: straight into the answer the
 * API assembles, with no buffer of its own and no copy (a 100-record page: 340 µs against 490).
 */
export class DeferredRecord {
  readonly length: number;
  readonly #head: { length: number; next: number };

  constructor(readonly stored: Buffer) {
    this.#head = record2Head(stored);
    this.length = this.#head.length;
  }

  /** Writes the text at `offset` of `target`, which has `length` bytes and one more free there. */
  writeInto(target: Buffer, offset: number): void {
    decoding(() => inflateRecord2Into(this.stored, this.#head, target, offset));
  }
}

/**
 * A record's JSON text (UTF-8) as the API splices it into its answers: its bytes, or a record of format 2
 * to inflate into the answer. Both have the text's `length`.
 */
export type RecordJson = Buffer | DeferredRecord;

/** The JSON text of a stored record; a format this weft does not read is an error now, not later. */
export function recordJson(stored: Uint8Array): RecordJson {
  const view = viewOf(stored);
  return view[0] === RECORD_FORMAT_2 ? new DeferredRecord(view) : decodeRecordBytes(view);
}

/**
 * Writes the text at `offset` of `target`, which has its length and one byte more free there (a
 * deferred record may overwrite that byte); returns the offset after the text.
 */
export function writeRecordJson(json: RecordJson, target: Buffer, offset: number): number {
  if (json instanceof DeferredRecord) json.writeInto(target, offset);
  else json.copy(target, offset);
  return offset + json.length;
}

/** The text in a buffer of its own. */
export const recordJsonBytes = (json: RecordJson): Buffer =>
  json instanceof DeferredRecord ? decodeRecordBytes(json.stored) : json;

export const decodeRecord = (stored: Uint8Array): string => decodeRecordBytes(stored).toString('utf8');
