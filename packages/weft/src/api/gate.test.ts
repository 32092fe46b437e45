import { describe, expect, it } from 'vitest';
import { BusyError } from '../common/errors.js';
import { createGate } from './gate.js';

/** A call that runs until `finish()` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { run: () => done, finish };
}

describe('createGate', () => {
  it('runs at most `slots` calls at once and admits the waiting ones in order', async () => {
    const gate = createGate({ slots: 2, maxWaitMs: 60_000, maxWaiting: 10, resource: 'a slot' });
    const calls = [held(), held(), held(), held()];
    const order: number[] = [];
    const running = calls.map((call, i) =>
      gate.run(async () => {
        order.push(i);
        await call.run();
      }),
    );
    await Promise.resolve();
    expect([gate.active, gate.waiting, order]).toEqual([2, 2, [0, 1]]);
    calls[1]!.finish();
    await running[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect([gate.active, gate.waiting, order]).toEqual([2, 1, [0, 1, 2]]);
    for (const call of calls) call.finish();
    await Promise.all(running);
    expect([gate.active, gate.waiting, order]).toEqual([0, 0, [0, 1, 2, 3]]);
  });

  it('answers busy, with a retry hint, when a wait passes maxWaitMs or the queue is full', async () => {
    const gate = createGate({ slots: 1, maxWaitMs: 20, maxWaiting: 1, resource: 'a store connection' });
    const first = held();
    const running = gate.run(first.run);
    const waiting = gate.run(async () => 'late');
    const refused = gate.run(async () => 'refused');
    await expect(refused).rejects.toThrow(/1 requests already wait for a store connection/);
    await expect(waiting).rejects.toBeInstanceOf(BusyError);
    await expect(waiting).rejects.toMatchObject({ status: 503, retryAfterSeconds: 1 });
    expect(gate.waiting).toBe(0);
    first.finish();
    await running;
    expect(gate.active).toBe(0);
    await expect(gate.run(async () => 'again')).resolves.toBe('again');
  });

  it('frees the slot of a call that fails', async () => {
    const gate = createGate({ slots: 1, maxWaitMs: 1000, maxWaiting: 1, resource: 'a slot' });
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.active).toBe(0);
  });
});
