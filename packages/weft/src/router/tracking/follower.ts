import { errorMessage } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import { keyOfEvent } from './chain-events.js';
import type { BlockEvents, ChainReader, TxEvents } from './chain-reader.js';

/**
 * One follower per chain: it reads every new block once and hands it to the tracker, which matches it
 * against all transfers in flight, so the cost grows with chains and blocks, not with transfers. The
 * transfer events of the last `retainBlocks` blocks stay in memory by key, so a hop discovered after its
 * evidence landed (a transfer tracked late, a forward seen on another chain first) is answered at once.
 * After a restart or a takeover the tracker rewinds a follower to the heights its transfers still wait
 * on; blocks read again are harmless (evidence is recorded idempotently). What is older than the window
 * the tracker looks up directly (`catch-up.ts`); `covers` tells when it need not.
 */

/** Clocks of chains and of this process may disagree by this much: `covers` keeps it as a margin. */
const COVER_SLACK_MS = 60_000;

export interface ChainFollower {
  readonly chainId: string;
  /** The next height to be read: evidence at or above it will come through `onBlock`. */
  nextHeight(): number;
  /** The lowest height of the window (0 before the first read). */
  windowStart(): number;
  /**
   * The highest block read (height 0 before the first) and when it was reached (wall clock; the
   * follower's start before the first): what a packet's timeout is judged by, and whether the chain lives.
   */
  clock(): { height: number; timeMs: number; advancedAtMs: number };
  /**
   * True when every block of the chain made at or after `sinceMs` is in the window or still to be read:
   * the window starts at the first height, or its first block was made well before `sinceMs`.
   */
  covers(sinceMs: number): boolean;
  /** Buffered txs with an event answering `key`. */
  recent(key: string): TxEvents[];
  /** Reads the chain again from `height` (at least), before going on with new blocks. */
  rewind(height: number): void;
  /** Resolves once the follower knows the chain's head (its starting height is set). */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

export interface FollowerOptions {
  reader: ChainReader;
  onBlock: (block: BlockEvents) => Promise<void>;
  pollMs: number;
  retainBlocks: number;
  /** Blocks read per round before yielding to the poll timer (bounds a catch-up's burst). */
  batchBlocks?: number;
  logger: Logger;
}

export function startChainFollower(options: FollowerOptions): ChainFollower {
  const { reader, onBlock, pollMs, retainBlocks, logger } = options;
  const chainId = reader.chain.chainId;
  const batch = options.batchBlocks ?? 50;
  const byKey = new Map<string, TxEvents[]>();
  const keysAt = new Map<number, string[]>();
  /** When each block of the window was made: its time, or (not known) when it was read, which is later. */
  const madeAt = new Map<number, number>();
  let next = 0;
  let bufferStart = 0;
  let tip = { height: 0, timeMs: 0, advancedAtMs: Date.now() };
  let rewindTo: number | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let readyResolve!: () => void;
  const readyPromise = new Promise<void>((resolve) => {
    readyResolve = resolve;
  });

  const remember = (block: BlockEvents) => {
    const keys: string[] = [];
    for (const tx of block.txs) {
      for (const event of tx.events) {
        const key = keyOfEvent(event, chainId);
        if (!key) continue;
        const list = byKey.get(key) ?? [];
        if (!list.some((t) => t.tx.txHash === tx.tx.txHash)) list.push(tx);
        byKey.set(key, list);
        keys.push(key);
      }
    }
    if (keys.length > 0) keysAt.set(block.height, [...(keysAt.get(block.height) ?? []), ...keys]);
  };

  const evictBelow = (height: number) => {
    for (const [h, keys] of keysAt) {
      if (h >= height) continue;
      for (const key of keys) {
        const list = byKey.get(key)?.filter((t) => t.tx.height !== h);
        if (list && list.length > 0) byKey.set(key, list);
        else byKey.delete(key);
      }
      keysAt.delete(h);
    }
    for (let h = bufferStart; h < height; h++) madeAt.delete(h);
  };

  const read = async (height: number) => {
    const block = await reader.block(height);
    const made = block.time ? Date.parse(block.time) : Number.NaN;
    if (!madeAt.has(height)) madeAt.set(height, Number.isFinite(made) ? made : Date.now());
    if (height > tip.height) tip = { height, timeMs: madeAt.get(height)!, advancedAtMs: Date.now() };
    remember(block);
    await onBlock(block);
  };

  const round = async () => {
    if (next === 0) {
      const head = await reader.head();
      next = Math.max(1, head - retainBlocks + 1);
      bufferStart = next;
      if (rewindTo === undefined || rewindTo >= next) rewindTo = undefined;
      readyResolve();
    }
    if (rewindTo !== undefined) {
      const from = rewindTo;
      const to = bufferStart;
      rewindTo = undefined;
      let h = from;
      try {
        for (; h < to && !stopped; h++) await read(h);
      } catch (err) {
        // Resume the rewind where it stopped (the read heights stay read, an earlier rewind joins it).
        rewindTo = Math.min(rewindTo ?? h, h);
        throw err;
      }
      bufferStart = Math.min(bufferStart, from);
      return;
    }
    const head = await reader.head();
    const last = Math.min(head, next + batch - 1);
    for (; next <= last && !stopped; next++) await read(next);
    const floor = next - retainBlocks;
    if (floor > bufferStart) {
      evictBelow(floor);
      bufferStart = floor;
    }
  };

  // The chain's cadence, learnt from when new heads appear: the follower sleeps until the next block is
  // due, then asks often (every tenth of `pollMs`) for a while, so a block is read soon after it is made
  // without polling fast all the time.
  const cadence = { lastAdvance: 0, intervalMs: 0 };
  const fastPollMs = Math.max(10, Math.floor(pollMs / 10));
  const waitMs = (now: number) => {
    if (cadence.intervalMs === 0) return pollMs;
    const due = cadence.lastAdvance + cadence.intervalMs;
    if (now < due) return Math.min(pollMs, Math.max(fastPollMs, due - now));
    // Overdue: ask often for half an interval more, then fall back to the plain poll.
    return now < due + cadence.intervalMs / 2 ? fastPollMs : pollMs;
  };
  const learn = (advanced: number) => {
    const now = Date.now();
    if (advanced === 1 && cadence.lastAdvance > 0) {
      const seen = now - cadence.lastAdvance;
      cadence.intervalMs = cadence.intervalMs === 0 ? seen : 0.8 * cadence.intervalMs + 0.2 * seen;
    }
    if (advanced > 0) cadence.lastAdvance = now;
  };

  let failing = false;
  const loop = async () => {
    while (!stopped) {
      let busy = false;
      try {
        const before = next;
        const rewinding = rewindTo !== undefined;
        await round();
        if (!rewinding) learn(next - before);
        busy = rewindTo !== undefined || next - before >= batch;
        if (failing) logger.info({ chainId }, 'tracking: the chain answers again');
        failing = false;
      } catch (err) {
        // Once per outage, not once per poll.
        if (!failing)
          logger.warn({ chainId, err: errorMessage(err) }, 'tracking: reading the chain failed; retrying');
        failing = true;
      }
      if (stopped || busy) continue;
      const ms = failing ? pollMs : waitMs(Date.now());
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, ms);
      });
    }
  };
  const running = loop();

  return {
    chainId,
    nextHeight: () => next,
    windowStart: () => bufferStart,
    clock: () => tip,
    covers(sinceMs) {
      if (next === 0) return false;
      // A window from the first height holds the whole chain.
      if (bufferStart <= 1) return true;
      const at = madeAt.get(bufferStart);
      return at !== undefined && at + COVER_SLACK_MS <= sinceMs;
    },
    recent: (key) => byKey.get(key) ?? [],
    rewind(height) {
      const target = Math.max(1, height);
      if (next !== 0 && target >= bufferStart) return;
      rewindTo = rewindTo === undefined ? target : Math.min(rewindTo, target);
      wake?.();
    },
    ready: () => readyPromise,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      readyResolve();
      await running;
    },
  };
}
