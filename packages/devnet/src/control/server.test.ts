import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlError, type ControlServer, startControlServer } from './server.js';
import type { ControlledRelayer } from './types.js';

/**
 * A small real relayer: it moves queued items once their delay has passed, unless paused. The control
 * surface drives it over HTTP, and what the relayer then does (or does not) relay shows the call worked.
 */
function queueRelayer(name: string) {
  let paused = false;
  let delayMs = 0;
  const queued: Array<{ item: string; at: number }> = [];
  const relayed: string[] = [];
  const relayer: ControlledRelayer & { push(item: string, now: number): void; tick(now: number): void } = {
    name,
    description: `${name}: a queue`,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    status: () => ({ paused, delayMs }),
    push: (item, now) => queued.push({ item, at: now }),
    tick(now) {
      if (paused) return;
      while (queued.length > 0 && queued[0]!.at + delayMs <= now) relayed.push(queued.shift()!.item);
    },
  };
  return { relayer, relayed };
}

let control: ControlServer;
const a = queueRelayer('alpha');
const b = queueRelayer('beta');

beforeAll(async () => {
  control = await startControlServer({ host: '127.0.0.1', port: 0 });
  control.registerRelayer(a.relayer);
  control.registerRelayer(b.relayer);
});
afterAll(() => control?.close());

async function call(method: string, params: unknown[] = []) {
  const response = await fetch(control.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    id: number;
    result?: unknown;
    error?: { code: number; message: string };
  };
}

describe('control surface', () => {
  it('listens on loopback and lists the registered relayers', async () => {
    expect(control.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { id, result } = await call('weft_relayers');
    expect(id).toBe(7);
    expect(result).toEqual([
      { name: 'alpha', description: 'alpha: a queue', paused: false, delay_ms: 0 },
      { name: 'beta', description: 'beta: a queue', paused: false, delay_ms: 0 },
    ]);
  });

  it('pauses, delays and resumes one relayer, leaving the other alone', async () => {
    expect((await call('weft_pauseRelayer', ['alpha'])).result).toMatchObject({
      name: 'alpha',
      paused: true,
    });
    a.relayer.push('a1', 0);
    b.relayer.push('b1', 0);
    a.relayer.tick(10);
    b.relayer.tick(10);
    expect(a.relayed).toEqual([]);
    expect(b.relayed).toEqual(['b1']);

    expect((await call('weft_setRelayerDelay', ['alpha', 500])).result).toMatchObject({ delay_ms: 500 });
    expect((await call('weft_resumeRelayer', ['alpha'])).result).toMatchObject({ paused: false });
    a.relayer.tick(499);
    expect(a.relayed).toEqual([]);
    a.relayer.tick(500);
    expect(a.relayed).toEqual(['a1']);
    expect(b.relayer.status()).toEqual({ paused: false, delayMs: 0 });
  });

  it('answers bad requests with JSON-RPC errors', async () => {
    expect((await call('weft_pauseRelayer', ['gamma'])).error).toEqual({
      code: -32602,
      message: 'no relayer named "gamma" (registered: alpha, beta)',
    });
    expect((await call('weft_setRelayerDelay', ['alpha', -1])).error?.code).toBe(-32602);
    expect((await call('weft_setRelayerDelay', ['alpha', '5'])).error?.code).toBe(-32602);
    expect((await call('anvil_mine')).error?.code).toBe(-32601);
    const response = await fetch(control.url, {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect(a.relayer.status().delayMs).toBe(500);
  });

  it('serves the methods a part registers, and refuses names outside weft_ or twice', async () => {
    control.registerMethod('weft_echo', (params) => {
      if (params.length === 0) throw new ControlError(-32602, 'nothing to echo');
      return params;
    });
    expect((await call('weft_echo', [1, 'two'])).result).toEqual([1, 'two']);
    expect((await call('weft_echo')).error).toEqual({ code: -32602, message: 'nothing to echo' });
    expect(() => control.registerMethod('anvil_x', () => 1)).toThrow(/must start with weft_/);
    expect(() => control.registerMethod('weft_echo', () => 1)).toThrow(/twice/);
    expect(() => control.registerRelayer(a.relayer)).toThrow(/twice/);
  });
});
