import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureRecords } from '../../indexer/test-support/logger.js';
import type { BlockEvidence } from './apply-evidence.js';
import { keyOfEvent } from './chain-events.js';
import type { BlockEvents, ChainReader } from './chain-reader.js';
import { type ChainFollower, startChainFollower } from './follower.js';

/**
 * A chain follower over a chain kept in memory: the blocks of weft-l1-1 that the recorded two-hop forward
 * names (`test-support/recorded/ibc-forward.json`, see `apply-evidence-recorded.test.ts`), the others
 * empty, one second apart. It reads each block once and in order from `retainBlocks` below the head,
 * keeps the window's transfer events by key, reads again from a height it is rewound to, says which time
 * spans its window covers, and logs a failing node once per outage.
 */

const recorded: { blocks: BlockEvidence[] } = JSON.parse(
  readFileSync(new URL('./test-support/recorded/ibc-forward.json', import.meta.url), 'utf8'),
);
const l1Block = recorded.blocks.find((b) => b.chainId === 'weft-l1-1')!;
const RECORDED_HEIGHT = (l1Block as unknown as BlockEvents).height;
// The packet weft-move-1 sent, which weft-l1-1 received in that block.
const received = l1Block.txs.flatMap((t) => t.events).find((e) => e.type === 'ibc_recv')!;
const forwardKey = keyOfEvent(received, 'weft-l1-1')!;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const timeOf = (height: number) => new Date(Date.UTC(2026, 0, 1) + height * 1000).toISOString();

/** weft-l1-1 in memory: `tip.head` moves as the test says; `tip.failing` makes the node refuse. */
function memoryChain() {
  const tip = { head: 20, failing: false, reads: [] as number[] };
  const reader: ChainReader = {
    chain: { chainId: 'weft-l1-1', kind: 'cosmos' },
    async head() {
      if (tip.failing) throw new Error('connection refused');
      return tip.head;
    },
    async block(height) {
      if (tip.failing) throw new Error('connection refused');
      tip.reads.push(height);
      if (height === RECORDED_HEIGHT) return l1Block as unknown as BlockEvents;
      return { height, time: timeOf(height), hashes: [], txs: [] };
    },
    sourceTx: async () => undefined,
    search: async () => [],
    close: async () => undefined,
  };
  return { tip, reader };
}

const running: ChainFollower[] = [];
afterEach(async () => {
  for (const f of running.splice(0)) await f.stop();
});

function follow(reader: ChainReader, retainBlocks: number) {
  const handed: number[] = [];
  const { logger, records } = captureRecords('info');
  const follower = startChainFollower({
    reader,
    onBlock: async (block) => void handed.push(block.height),
    pollMs: 20,
    retainBlocks,
    logger,
  });
  running.push(follower);
  return { follower, handed, records };
}

describe('a chain follower', () => {
  it('reads each block once, in order, from its window below the head, and keeps the window by key', async () => {
    const { tip, reader } = memoryChain();
    const { follower, handed } = follow(reader, 15);
    await follower.ready();
    await vi.waitFor(() => expect(handed.at(-1)).toBe(20));
    expect(handed).toEqual(range(6, 20));
    // The recorded block lies in that window, and below the window of 5 the next test keeps.
    expect(RECORDED_HEIGHT).toBeGreaterThanOrEqual(6);
    expect(RECORDED_HEIGHT).toBeLessThan(16);
    expect(follower.windowStart()).toBe(6);
    expect(follower.recent(forwardKey).map((t) => t.tx.height)).toEqual([RECORDED_HEIGHT]);
    expect(follower.clock()).toMatchObject({ height: 20, timeMs: Date.parse(timeOf(20)) });

    // New blocks: read once each; the window slides past the recorded block, which leaves memory.
    tip.head = 30;
    await vi.waitFor(() => expect(handed.at(-1)).toBe(30));
    expect(handed.slice(15)).toEqual(range(21, 30));
    expect(follower.windowStart()).toBe(16);
    expect(follower.recent(forwardKey)).toEqual([]);
  });

  it('reads again from a height it is rewound to, before going on; a height in the window needs nothing', async () => {
    const { tip, reader } = memoryChain();
    const { follower, handed } = follow(reader, 5);
    await vi.waitFor(() => expect(handed.at(-1)).toBe(20));
    expect(follower.windowStart()).toBe(16);
    follower.rewind(18);
    follower.rewind(RECORDED_HEIGHT);
    await vi.waitFor(() => expect(handed.at(-1)).toBe(15));
    expect(handed.slice(5)).toEqual(range(RECORDED_HEIGHT, 15));
    // Read again and handed over, the rewound blocks leave the window with the next round.
    await vi.waitFor(() => expect(follower.windowStart()).toBe(16));
    tip.head = 21;
    await vi.waitFor(() => expect(handed.at(-1)).toBe(21));
    // Blocks read again are harmless, but each height is read from the node only when asked.
    expect(tip.reads.filter((h) => h === 16)).toEqual([16]);
  });

  it('covers a time span whose blocks are all in its window or still to come', async () => {
    const { reader } = memoryChain();
    const whole = follow(reader, 100).follower;
    expect(whole.covers(0)).toBe(false);
    await whole.ready();
    await vi.waitFor(() => expect(whole.nextHeight()).toBe(21));
    // A window from height 1 holds the whole chain.
    expect(whole.covers(0)).toBe(true);

    const part = follow(memoryChain().reader, 5).follower;
    await vi.waitFor(() => expect(part.nextHeight()).toBe(21));
    const firstMade = Date.parse(timeOf(16));
    expect(part.covers(firstMade)).toBe(false);
    // Clocks may disagree: a minute of margin.
    expect(part.covers(firstMade + 60_000)).toBe(true);
  });

  it('logs a failing node once per outage, and goes on where it stopped', async () => {
    const { tip, reader } = memoryChain();
    const { follower, handed, records } = follow(reader, 5);
    await vi.waitFor(() => expect(handed.at(-1)).toBe(20));
    tip.failing = true;
    tip.head = 22;
    await new Promise((resolve) => setTimeout(resolve, 150));
    tip.failing = false;
    await vi.waitFor(() => expect(handed.at(-1)).toBe(22));
    expect(handed.slice(5)).toEqual([21, 22]);
    expect(records.map((r) => r.msg)).toEqual([
      'tracking: reading the chain failed; retrying',
      'tracking: the chain answers again',
    ]);
    expect(follower.clock().height).toBe(22);
  });
});
