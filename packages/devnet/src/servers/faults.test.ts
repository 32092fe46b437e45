import { describe, expect, it } from 'vitest';
import { createFaults } from './faults.js';

const fates = (faults: ReturnType<typeof createFaults>, stream: string, n: number) =>
  Array.from({ length: n }, () => faults.decide(stream));

describe('createFaults', () => {
  it('decides the same fates for the same seed, stream by stream', () => {
    const settings = { errorRate: 0.3, dropRate: 0.1, delayRate: 0.5, delayMs: 20, seed: 'x' };
    const a = createFaults(settings);
    const b = createFaults(settings);
    expect(fates(a, 'rpc', 50)).toEqual(fates(b, 'rpc', 50));
    // Draws on one stream do not shift another.
    fates(a, 'rest', 7);
    expect(fates(a, 'rpc', 20)).toEqual(fates(b, 'rpc', 20));
    const outcomes = new Set(fates(a, 'rpc', 200).map((f) => f.outcome));
    expect(outcomes).toEqual(new Set(['pass', 'error', 'drop']));
  });

  it('restarts its streams when changed, and never faults at zero rates', () => {
    const faults = createFaults({ errorRate: 0.5, seed: 1 });
    const first = fates(faults, 'rpc', 10);
    faults.set({ seed: 1 });
    expect(fates(faults, 'rpc', 10)).toEqual(first);
    faults.set({ errorRate: 0 });
    expect(fates(faults, 'rpc', 100).every((f) => f.outcome === 'pass' && f.delayMs === 0)).toBe(true);
  });

  it('refuses rates outside [0, 1]', () => {
    expect(() => createFaults({ errorRate: 1.5 })).toThrow('errorRate must be within [0, 1]');
    expect(() => createFaults().set({ delayMs: -1 })).toThrow('delayMs');
  });
});
