import { describe, expect, it } from 'vitest';
import { mapConcurrently, TimeoutError, withTimeout } from './async.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapConcurrently', () => {
  it('keeps the order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapConcurrently([50, 10, 30, 5, 20, 1], 2, async (ms, i) => {
      running++;
      most = Math.max(most, running);
      await sleep(ms);
      running--;
      return i * 10;
    });
    expect(out).toEqual([0, 10, 20, 30, 40, 50]);
    expect(most).toBe(2);
    expect(await mapConcurrently([], 4, async () => 1)).toEqual([]);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapConcurrently([1, 2, 3], 3, async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      }),
    ).rejects.toThrow('two');
  });
});

describe('withTimeout', () => {
  it('answers the work when it settles in time, a TimeoutError naming the reason when not', async () => {
    expect(
      await withTimeout(
        sleep(5).then(() => 'done'),
        200,
        'slow',
      ),
    ).toBe('done');
    await expect(withTimeout(sleep(500), 20, 'chain x did not answer')).rejects.toThrow(
      new TimeoutError('chain x did not answer'),
    );
    await expect(withTimeout(Promise.reject(new Error('boom')), 200, 'slow')).rejects.toThrow('boom');
  });
});
