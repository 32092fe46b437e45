/**
 * A memo for pure string-keyed computations that repeat across blocks (addresses, public keys). It forgets
 * everything once `limit` entries are held, which keeps it bounded without per-hit bookkeeping.
 */
export function boundedMemo<V>(limit: number, compute: (key: string) => V): (key: string) => V {
  const entries = new Map<string, V>();
  return (key) => {
    let value = entries.get(key);
    if (value === undefined && !entries.has(key)) {
      value = compute(key);
      if (entries.size >= limit) entries.clear();
      entries.set(key, value);
    }
    return value as V;
  };
}
