import { createHash } from 'node:crypto';

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence, everywhere. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** Picks a key by weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
}

export function createRng(seed: string): Rng {
  let state = createHash('sha256').update(seed).digest().readUInt32BE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('rng.pick: empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    chance: (p) => next() < p,
    weighted(weights) {
      const entries = Object.entries(weights) as Array<[string, number]>;
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [key, weight] of entries) {
        roll -= weight;
        if (roll < 0) return key as never;
      }
      return entries[entries.length - 1]![0] as never;
    },
  };
  return rng;
}
