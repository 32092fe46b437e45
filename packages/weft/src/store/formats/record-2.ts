import { deflateRawSync } from 'node:zlib';
import { DICTIONARY_1 } from './record-1.js';
import { sizedInflater } from './sized-inflate.js';
import { malformed, type StoredKind } from './stored-value-error.js';
import { readVarint, varintLength, writeVarint } from './varint.js';

/**
 * Record format 2: the byte 2, the text's UTF-8 length as a varint (1–3 bytes for a record), then
 * format 1's deflate stream (raw deflate, `DICTIONARY_1`). Knowing the length, a read inflates into a
 * buffer of the record's size (or straight into the answer the API assembles), with one zlib context
 * kept for every read (`sized-inflate.ts`), where zlib's one-shot calls build a stream per record and
 * return a slice of a 16 KB chunk. Any deflate level decodes the same way; records are written at level 3
 * (on the bench chain 30 µs per Cosmos tx and 18 µs per EVM receipt against 49 and 50 at level 9, for
 * 3 % and 10 % more bytes).
 *
 * This file does not change once a later format is written: migration 0003 and call frames format 2
 * write with it, so what they store stays what they were written to store.
 */
export const RECORD_FORMAT_2 = 2;
const LEVEL = 3;
/** zlib's smallest output chunk. */
const MIN_CHUNK = 64;
const inflate = sizedInflater(DICTIONARY_1);

export function encodeRecord2(text: Buffer): Buffer {
  // Records compress about fivefold: an output chunk of half the text is one allocation, not 16 KB.
  const payload = deflateRawSync(text, {
    level: LEVEL,
    dictionary: DICTIONARY_1,
    chunkSize: Math.max(MIN_CHUNK, (text.length >> 1) + 64),
  });
  const head = varintLength(text.length);
  const out = Buffer.allocUnsafe(1 + head + payload.length);
  out[0] = RECORD_FORMAT_2;
  writeVarint(out, 1, text.length);
  payload.copy(out, 1 + head);
  return out;
}

/** Deflate's highest ratio (a stream of one repeated byte): no text is longer than its stream times this. */
const MAX_RATIO = 1032;

/**
 * Where the text of `view`, a value of format 2, starts being stored, and its length; a length its
 * stream could not hold is malformed (a read would otherwise take a buffer of that size).
 */
export function record2Head(view: Buffer, kind: StoredKind = 'record'): { length: number; next: number } {
  const { value: length, next } = readVarint(view, 1, kind);
  if (length > (view.length - next) * MAX_RATIO + 2)
    throw malformed(kind, `says ${length} bytes, more than its ${view.length - next}-byte stream can hold`);
  return { length, next };
}

/**
 * `view` a value of format 2 (its first byte 2): its text, in a buffer of its own size; `kind` names
 * what the text holds in the error a malformed value gets.
 */
export function decodeRecord2(view: Buffer, kind: StoredKind = 'record'): Buffer {
  const { length, next } = record2Head(view, kind);
  const text = inflate(view.subarray(next), length);
  if (text.length !== length)
    throw malformed(kind, `inflates to ${text.length} bytes, its header says ${length}`);
  return text;
}

/**
 * Writes the text of `view`, a value of format 2 whose head is `head`, into `target` at `offset`, where
 * its length and one byte more are free (that byte may be overwritten). Throws as `decodeRecord2`.
 */
export function inflateRecord2Into(
  view: Buffer,
  head: { length: number; next: number },
  target: Buffer,
  offset: number,
): void {
  const written = inflate.into(view.subarray(head.next), head.length, target, offset);
  // A text of another length: `decodeRecord2` says which.
  if (written !== head.length) decodeRecord2(view);
}
