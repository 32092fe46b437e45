import { describe, expect, it } from 'vitest';
import { createLru } from './lru.js';

describe('createLru', () => {
  it('forgets the least recently used entry when full', () => {
    const lru = createLru<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('expires entries after their time to live', () => {
    let t = 1000;
    const lru = createLru<string>(10, () => t);
    lru.set('k', 'v', 500);
    lru.set('forever', 'v');
    t = 1499;
    expect(lru.get('k')).toBe('v');
    t = 1500;
    expect(lru.get('k')).toBeUndefined();
    expect(lru.size).toBe(1);
    t = 1e12;
    expect(lru.get('forever')).toBe('v');
  });

  it('stores nothing with a capacity of zero', () => {
    const lru = createLru<number>(0);
    lru.set('a', 1);
    expect(lru.get('a')).toBeUndefined();
  });
});
