import { createByteLru } from '../../common/lru.js';

/**
 * Stored tx and EVM tx records by sequence, kept in the reading process. A record never changes once
 * its batch is committed, so a page reads its keys (and total) from the store and only the records
 * this cache lacks. Wallets poll the newest page of the same accounts over and over; those records
 * stay here while the keys query stays exact.
 *
 * Bounded by the records' total length, least recently used out first. Entries also expire after
 * `ttlMs`: a store wiped and rebuilt under a running reader reuses sequences, and the TTL bounds how
 * long an old record could be served for a reused one.
 */

export type RecordTable = 'tx' | 'evm_tx';

export interface RecordCache {
  get(table: RecordTable, sequence: number): Buffer | undefined;
  set(table: RecordTable, sequence: number, json: Buffer): void;
  /** Bytes of JSON held. */
  readonly size: number;
}

export interface RecordCacheOptions {
  /** Most bytes of JSON (UTF-8) held. */
  maxBytes: number;
  ttlMs?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 5 * 60_000;

/** Both families in one cache, keyed by number (no key strings built per read): the low bit is the family. */
const keyOf = (table: RecordTable, sequence: number) => sequence * 2 + (table === 'tx' ? 0 : 1);

/**
 * The record in memory of its own. A slice of a larger buffer (zlib's 16 KB output chunk, an 8 KB pool
 * slab) keeps all of it alive while the cache counts the slice: records from zlib's one-shot inflate
 * held 3 to 7 times what the cache counted.
 */
function owned(json: Buffer): Buffer {
  if (json.buffer.byteLength <= json.byteLength + OWN_SLACK) return json;
  const copy = Buffer.allocUnsafeSlow(json.byteLength);
  json.copy(copy);
  return copy;
}

/** Bytes past a record that its buffer may hold and still count as its own (a spare byte zlib needs). */
const OWN_SLACK = 64;

export function createRecordCache(options: RecordCacheOptions): RecordCache {
  const records = createByteLru<number, Buffer>({
    maxBytes: options.maxBytes,
    sizeOf: (json) => json.byteLength,
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    now: options.now,
  });
  return {
    get: (table, sequence) => records.get(keyOf(table, sequence)),
    set(table, sequence, json) {
      records.set(keyOf(table, sequence), owned(json));
    },
    get size() {
      return records.calculatedSize;
    },
  };
}
