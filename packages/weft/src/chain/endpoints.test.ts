import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import {
  createEndpoints,
  FutureHeightError,
  heightSignal,
  NodeQueryError,
  NodeUnavailableError,
  PrunedHeightError,
  parseJson,
  troubleOfStatus,
} from './endpoints.js';

let devnet: Devnet;
let rpc: string;
let deadUrl: string;

/** A loopback URL nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const statusOf = (answer: { status: number; body: string; url: string }) => {
  const trouble = troubleOfStatus(answer);
  if (trouble) throw trouble;
  return parseJson(answer);
};

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'endpoints',
    vms: ['move'],
    accounts: 2,
    txsPerBlock: 0,
  });
  await devnet.fastForward(3);
  rpc = devnet.chains[0]!.urls.rpc;
  deadUrl = await closedPortUrl();
});

afterAll(() => devnet.close());

describe('endpoints', () => {
  it('rotates past a dead URL, marks it unhealthy after three failures, and retries it after the pause', async () => {
    let clock = 0;
    const endpoints = createEndpoints([deadUrl, rpc], {
      timeoutMs: 2000,
      recoverAfterMs: 1000,
      now: () => clock,
    });
    for (let i = 0; i < 6; i += 1) {
      const json = await endpoints.request({ path: '/health' }, statusOf);
      expect(json.result).toEqual({});
    }
    const dead = endpoints.health().find((h) => h.url === deadUrl)!;
    expect(dead.healthy).toBe(false);
    expect(dead.consecutiveFailures).toBe(3);
    clock += 1000;
    expect(endpoints.health().find((h) => h.url === deadUrl)!.healthy).toBe(true);
  });

  it('reports a refused connection as node trouble once every URL failed', async () => {
    const endpoints = createEndpoints([deadUrl], { timeoutMs: 2000 });
    const err = await endpoints.request({ path: '/health' }, statusOf).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeUnavailableError);
    expect((err as NodeUnavailableError).failure).toBe('unavailable');
    expect((err as NodeUnavailableError).retryable).toBe(true);
    expect((err as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('maps timeouts, 503s and dropped connections to retryable failures', async () => {
    const { servers } = devnet.chains[0]!;
    const endpoints = createEndpoints([rpc], { timeoutMs: 200 });
    try {
      // undici checks its timeouts on a coarse clock (about half a second), so the delay is well past it.
      servers.setFaults({ delayRate: 1, delayMs: 2000 });
      const timeout = await endpoints.request({ path: '/health' }, statusOf).catch((e: unknown) => e);
      expect((timeout as NodeUnavailableError).failure).toBe('timeout');

      servers.setFaults({ delayRate: 0, errorRate: 1 });
      const unavailable = await endpoints.request({ path: '/health' }, statusOf).catch((e: unknown) => e);
      expect((unavailable as NodeUnavailableError).failure).toBe('unavailable');
      expect((unavailable as Error).message).toMatch(/HTTP 503/);

      servers.setFaults({ errorRate: 0, dropRate: 1 });
      const dropped = await endpoints.request({ path: '/health' }, statusOf).catch((e: unknown) => e);
      expect(dropped).toBeInstanceOf(NodeUnavailableError);
      expect((dropped as NodeUnavailableError).failure).toBe('unavailable');
    } finally {
      servers.setFaults({ errorRate: 0, delayRate: 0, dropRate: 0 });
    }
  });

  it('stops at the caller abort without counting it against the URL', async () => {
    const endpoints = createEndpoints([rpc], { timeoutMs: 5000 });
    const controller = new AbortController();
    controller.abort(new Error('stopping'));
    await expect(endpoints.request({ path: '/health', signal: controller.signal }, statusOf)).rejects.toThrow(
      'stopping',
    );
    expect(endpoints.health()[0]!.consecutiveFailures).toBe(0);
  });

  it('does not rotate on an answer the node gave on purpose', async () => {
    const endpoints = createEndpoints([rpc, deadUrl], { timeoutMs: 2000 });
    for (let i = 0; i < 2; i += 1) {
      const err = await endpoints
        .request({ path: '/health' }, () => {
          throw new NodeQueryError('refused', 400);
        })
        .catch((e: unknown) => e);
      // Either the first URL answered (and its refusal ends the call), or the dead one failed first.
      expect(err).toBeInstanceOf(NodeQueryError);
    }
  });

  it('reads the height signals in node error texts', () => {
    const future = heightSignal('height 9 must be less than or equal to the current blockchain height 4');
    expect(future).toBeInstanceOf(FutureHeightError);
    expect((future as FutureHeightError).latest).toBe(4);
    expect(
      heightSignal('codespace sdk code 26: invalid height: cannot query with height in the future'),
    ).toBeInstanceOf(FutureHeightError);
    const pruned = heightSignal('height 2 is not available, lowest height is 7');
    expect(pruned).toBeInstanceOf(PrunedHeightError);
    expect((pruned as PrunedHeightError).lowest).toBe(7);
    expect(pruned?.retryable).toBe(false);
    expect(heightSignal('could not find results for height #12')).toBeInstanceOf(PrunedHeightError);
    expect(heightSignal('execution reverted')).toBeUndefined();
  });
});
