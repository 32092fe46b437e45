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
  // One map per family keyed by sequence (no key strings to build on every read). Each map's order
  // is its recency order (a hit re-inserts); a clock across both says which family's oldest goes.
  const families: Record<RecordTable, Map<number, Entry>> = { tx: new Map(), evm_tx: new Map() };
  let size = 0;
  let clock = 0;

  const drop = (entries: Map<number, Entry>, sequence: number, entry: Entry) => {
    entries.delete(sequence);
    size -= entry.json.length;
  };

  /** The least recently used entry of either family. */
  const oldest = (): [Map<number, Entry>, number, Entry] | undefined => {
    let found: [Map<number, Entry>, number, Entry] | undefined;
    for (const entries of Object.values(families)) {
      const first = entries.entries().next();
      if (!first.done && (!found || first.value[1].used < found[2].used))
        found = [entries, first.value[0], first.value[1]];
    }
    return found;
  };

  return {
    get(table, sequence) {
      const entries = families[table];
      const entry = entries.get(sequence);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        drop(entries, sequence, entry);
        return undefined;
      }
      entries.delete(sequence);
      entry.used = ++clock;
      entries.set(sequence, entry);
      return entry.json;
    },
    set(table, sequence, json) {
      if (json.length > options.maxChars) return;
      const entries = families[table];
      const old = entries.get(sequence);
      if (old) drop(entries, sequence, old);
      entries.set(sequence, { json, expires: now() + ttlMs, used: ++clock });
      size += json.length;
      while (size > options.maxChars) {
        const victim = oldest();
        if (!victim) break;
        drop(...victim);
      }
    },
    get size() {
      return size;
    },
  };
}

interface Entry {
  json: string;
  expires: number;
  /** When it was last set or read (a counter). */
  used: number;
}
