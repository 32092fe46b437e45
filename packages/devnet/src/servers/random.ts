/**
 * A small seeded PRNG (mulberry32) for fault injection: the same seed and the same sequence of requests
 * give the same faults, so a flaky-network test can be replayed exactly.
 */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** A 32-bit seed from any string or number (FNV-1a over its text). */
export function seedFrom(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('/')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
