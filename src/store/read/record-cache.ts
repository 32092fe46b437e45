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
  get(table: RecordTable, sequence: number): string | undefined;
  set(table: RecordTable, sequence: number, json: string): void;
  /** Characters of JSON held. */
  readonly size: number;
}

export interface RecordCacheOptions {
  /** Most characters of JSON held (about bytes for the ASCII records the indexer writes). */
  maxChars: number;
  ttlMs?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 5 * 60_000;

export function createRecordCache(options: RecordCacheOptions): RecordCache {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const now = options.now ?? Date.now;
  // Map order is recency order: a hit re-inserts its key.
  const entries = new Map<string, { json: string; expires: number }>();
  let size = 0;

  const drop = (key: string, entry: { json: string }) => {
    entries.delete(key);
    size -= entry.json.length;
  };

  return {
    get(table, sequence) {
      const key = `${table}:${sequence}`;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        drop(key, entry);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.json;
    },
    set(table, sequence, json) {
      if (json.length > options.maxChars) return;
      const key = `${table}:${sequence}`;
      const old = entries.get(key);
      if (old) drop(key, old);
      entries.set(key, { json, expires: now() + ttlMs });
      size += json.length;
      for (const [oldest, entry] of entries) {
        if (size <= options.maxChars) break;
        drop(oldest, entry);
      }
    },
    get size() {
      return size;
    },
  };
}
