import { describe, expect, it } from 'vitest';
import { createConcurrency } from './concurrency.js';

describe('adaptive concurrency', () => {
  it('doubles while the node keeps up, up to the bound', async () => {
    const c = createConcurrency({ max: 16, initial: 2 });
    for (let i = 0; i < 40; i += 1) {
      const slot = await c.acquire();
      c.succeeded(slot);
      c.release(slot);
    }
    expect(c.limit).toBe(16);
  });

  it('halves once per round of failures, then grows by one per round', async () => {
    const c = createConcurrency({ max: 64, initial: 32 });
    const slots = await Promise.all(Array.from({ length: 32 }, () => c.acquire()));
    // Every request of the round fails: one halving, not thirty-two.
    for (const slot of slots) c.overloaded(slot);
    expect(c.limit).toBe(16);
    for (const slot of slots) c.release(slot);

    // A round is `limit` successes of slots taken after the halving.
    const next = await Promise.all(Array.from({ length: 16 }, () => c.acquire()));
    for (const slot of next) c.succeeded(slot);
    expect(c.limit).toBe(17);
    for (const slot of next) c.release(slot);

    const failing = await c.acquire();
    c.overloaded(failing);
    expect(c.limit).toBe(8);
    c.release(failing);
  });

  it('never goes below the minimum', async () => {
    const c = createConcurrency({ max: 8, min: 2, initial: 8 });
    for (let i = 0; i < 10; i += 1) {
      const slot = await c.acquire();
      c.overloaded(slot);
      c.release(slot);
    }
    expect(c.limit).toBe(2);
  });

  it('makes acquirers wait for a free slot, and lets an abort take a waiter out', async () => {
    const c = createConcurrency({ max: 1, initial: 1 });
    const first = await c.acquire();
    let granted = false;
    const second = c.acquire().then((slot) => {
      granted = true;
      return slot;
    });
    const controller = new AbortController();
    const third = c.acquire(controller.signal);
    await new Promise((r) => setImmediate(r));
    expect(granted).toBe(false);
    controller.abort(new Error('stop'));
    await expect(third).rejects.toThrow('stop');
    c.release(first);
    c.release(await second);
    expect(granted).toBe(true);
    expect(c.inFlight).toBe(0);
  });

  it('backs off exponentially with jitter, up to the cap', () => {
    const c = createConcurrency({ max: 4, backoffBaseMs: 100, backoffMaxMs: 1000, random: () => 0.5 });
    expect([1, 2, 3, 4, 5, 9].map((a) => c.backoffMs(a))).toEqual([100, 200, 400, 800, 1000, 1000]);
    const low = createConcurrency({ max: 4, backoffBaseMs: 100, random: () => 0 });
    const high = createConcurrency({ max: 4, backoffBaseMs: 100, random: () => 0.999 });
    expect(low.backoffMs(1)).toBe(80);
    expect(high.backoffMs(1)).toBe(120);
  });
});
