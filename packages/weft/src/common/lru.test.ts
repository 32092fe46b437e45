import { describe, expect, it } from 'vitest';
import { cached, createByteLru } from './lru.js';

describe('createByteLru', () => {
  it('holds at most maxBytes of keys and values, least recently used out first', () => {
    const lru = createByteLru<string, string>({ maxBytes: 10 });
    lru.set('a', 'xxxx'); // 5 bytes
    lru.set('b', 'yyy'); // 4 bytes
    expect(lru.get('a')).toBe('xxxx');
    lru.set('c', 'zz'); // 3 bytes: 12 > 10, so b (least recently used) goes
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c'), lru.calculatedSize]).toEqual(['xxxx', 'zz', 8]);
  });

  it('keeps no entry larger than the whole cache', () => {
    const lru = createByteLru<string, string>({ maxBytes: 10 });
    lru.set('big', 'x'.repeat(20));
    expect(lru.get('big')).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('bounds entries too when asked, and sizes values by sizeOf', () => {
    const lru = createByteLru<number, number[]>({ maxBytes: 1000, maxEntries: 2, sizeOf: (v) => v.length });
    lru.set(1, [1]);
    lru.set(2, [2, 2]);
    lru.set(3, [3, 3, 3]);
    expect([lru.has(1), lru.has(2), lru.has(3), lru.calculatedSize]).toEqual([false, true, true, 5]);
  });

  it('expires entries after their time to live on the given clock', () => {
    let now = 1;
    const lru = createByteLru<string, string>({ maxBytes: 100, ttlMs: 500, now: () => now });
    lru.set('k', 'v');
    lru.set('short', 'v', { ttl: 100 });
    now = 102;
    expect([lru.get('k'), lru.get('short')]).toEqual(['v', undefined]);
    now = 502;
    expect(lru.get('k')).toBeUndefined();
  });
});

describe('cached', () => {
  it('computes a value once and then serves it', () => {
    const lru = createByteLru<string, string>({ maxBytes: 100 });
    let computed = 0;
    const compute = () => `v${++computed}`;
    expect([cached(lru, 'k', compute), cached(lru, 'k', compute), computed]).toEqual(['v1', 'v1', 1]);
  });
});
