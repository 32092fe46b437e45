import { describe, expect, it } from 'vitest';
import { createPrng, seedFrom } from './random.js';

describe('createPrng', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const draw = (seed: number) =>
      Array.from(
        { length: 5 },
        (
          (p) => () =>
            p.next()
        )(createPrng(seed)),
      );
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const value of draw(7)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('spreads its draws over [0, 1)', () => {
    const prng = createPrng(seedFrom('spread'));
    const below = Array.from({ length: 10_000 }, () => prng.next()).filter((v) => v < 0.25).length;
    expect(below).toBeGreaterThan(2300);
    expect(below).toBeLessThan(2700);
  });

  it('derives stable seeds from text', () => {
    expect(seedFrom('seed', 'rpc')).toBe(seedFrom('seed', 'rpc'));
    expect(seedFrom('seed', 'rpc')).not.toBe(seedFrom('seed', 'rest'));
  });
});
