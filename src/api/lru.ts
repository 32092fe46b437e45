/**
 * A bounded map that forgets the least recently used entry first, with an optional time to live
 * per entry. Map insertion order is the recency order: a hit re-inserts the key.
 */
export interface Lru<V> {
  get(key: string): V | undefined;
  set(key: string, value: V, ttlMs?: number): void;
  delete(key: string): void;
  readonly size: number;
}

export function createLru<V>(capacity: number, now: () => number = Date.now): Lru<V> {
  const entries = new Map<string, { value: V; expires: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, ttlMs) {
      if (capacity <= 0) return;
      entries.delete(key);
      if (entries.size >= capacity) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expires: ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs });
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
