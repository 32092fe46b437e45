import { LRUCache } from 'lru-cache';

/**
 * Every in-process cache of weft (API answers and records, REST look-ups, the devnet's rendered
 * blocks) is an `lru-cache` bounded by bytes, not by entry count: a client that can choose what is
 * cached (a page size, a URL) must not be able to choose how much memory it takes.
 */
export type Lru<K extends {}, V extends {}> = LRUCache<K, V>;

export interface ByteLruOptions<K, V> {
  /** Most bytes held (keys and values together); entries larger than this are not kept. */
  maxBytes: number;
  /** Most entries held besides (absent: bytes only). */
  maxEntries?: number;
  /** Bytes an entry takes; default: the string lengths of key and value (JS keeps ASCII at a byte a char). */
  sizeOf?: (value: V, key: K) => number;
  /** Default time to live of an entry; absent: until pushed out. */
  ttlMs?: number;
  /** The clock of the time to live, in ms (tests move it). */
  now?: () => number;
}

/** A string-ish value's footprint: its length (bytes: their count), or its JSON's length. */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value === null || value === undefined) return 8;
  if (typeof value === 'number' || typeof value === 'boolean') return 8;
  return JSON.stringify(value).length;
}

export function createByteLru<K extends {}, V extends {}>(options: ByteLruOptions<K, V>): Lru<K, V> {
  const sizeOf = options.sizeOf ?? ((value: V, key: K) => approximateBytes(key) + approximateBytes(value));
  return new LRUCache<K, V>({
    // lru-cache needs a positive bound; callers that want no cache make none.
    maxSize: Math.max(1, Math.floor(options.maxBytes)),
    ...(options.maxEntries ? { max: options.maxEntries } : {}),
    maxEntrySize: Math.max(1, Math.floor(options.maxBytes)),
    sizeCalculation: (value, key) => Math.max(1, sizeOf(value, key)),
    ...(options.ttlMs === undefined ? {} : { ttl: options.ttlMs }),
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
}

/** Returns the cached value of `key`, computing and caching it on a miss. */
export function cached<K extends {}, V extends {}>(cache: Lru<K, V>, key: K, compute: () => V): V {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = compute();
  cache.set(key, value);
  return value;
}
