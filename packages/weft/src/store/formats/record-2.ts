import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DICTIONARY_1 } from './record-1.js';
import { malformed, type StoredKind } from './stored-value-error.js';
import { readVarint, varintLength, writeVarint } from './varint.js';

/**
 * Record format 2: the byte 2, the text's UTF-8 length as a varint (1–3 bytes for a record), then
 * format 1's deflate stream (raw deflate, `DICTIONARY_1`). Knowing the length, a read inflates into a
 * buffer of the record's size, where zlib's one-shot calls otherwise allocate a 16 KB chunk per record
 * and return a slice of it. Any deflate level decodes the same way; records are written at level 3
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

/**
 * `view` a value of format 2 (its first byte 2): its text, in a buffer of its own size; `kind` names
 * what the text holds in the error a malformed value gets.
 */
export function decodeRecord2(view: Buffer, kind: StoredKind = 'record'): Buffer {
  const { value: length, next } = readVarint(view, 1, kind);
  // One spare byte: with the buffer exactly full, zlib would allocate another chunk to look for more.
  const text = inflateRawSync(view.subarray(next), {
    dictionary: DICTIONARY_1,
    chunkSize: Math.max(MIN_CHUNK, length + 1),
  });
  if (text.length !== length)
    throw malformed(kind, `inflates to ${text.length} bytes, its header says ${length}`);
  return text;
}
