import { describe, expect, it } from 'vitest';
import { createDelayQueue } from './opinit-schedule.js';

describe('relayer delay queue', () => {
  it('holds items for the delay, in arrival order', () => {
    let now = 1_000;
    const queue = createDelayQueue<string>({ delayMs: 500, now: () => now });
    queue.push('a');
    now += 100;
    queue.push('b');
    expect(queue.takeDue()).toEqual([]);
    now += 400;
    expect(queue.takeDue()).toEqual(['a']);
    now += 100;
    expect(queue.takeDue()).toEqual(['b']);
    expect(queue.size).toBe(0);
  });

  it('keeps everything while paused and releases it on resume', () => {
    let now = 0;
    const queue = createDelayQueue<number>({ now: () => now });
    queue.pause();
    queue.push(1);
    queue.push(2);
    now += 10_000;
    expect(queue.takeDue()).toEqual([]);
    expect(queue.paused).toBe(true);
    queue.resume();
    expect(queue.takeDue()).toEqual([1, 2]);
  });

  it('applies a changed delay to items already waiting', () => {
    let now = 0;
    const queue = createDelayQueue<number>({ delayMs: 10_000, now: () => now });
    queue.push(1);
    now += 1_000;
    expect(queue.takeDue()).toEqual([]);
    queue.setDelay(1_000);
    expect(queue.delayMs).toBe(1_000);
    expect(queue.takeDue()).toEqual([1]);
  });

  it('puts retried items first, due at once', () => {
    let now = 0;
    const queue = createDelayQueue<number>({ delayMs: 1_000, now: () => now });
    queue.push(3);
    now += 1_000;
    expect(queue.takeDue()).toEqual([3]);
    queue.push(4);
    queue.retry([3]);
    expect(queue.takeDue()).toEqual([3]);
    now += 1_000;
    expect(queue.takeDue()).toEqual([4]);
  });
});
