import type { Hex } from 'viem';
import type { Logger } from 'weft/common/logger.js';
import type { OmniPacket } from 'weft/protocol/omnichain.js';

/** Longest wait a Node timer takes (a longer one fires at once); a longer wait is woken and set again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One tx the relayer sends to a destination. */
export interface RelayOp {
  kind: 'verify' | 'deliver';
  packet: OmniPacket;
}

/** What became of one op: committed or not, and for a delivery whether the receiver took it. */
export interface RelayResult {
  ok: boolean;
  /** `failed` when the receiver reverted (the packet stays verified). */
  outcome?: 'delivered' | 'failed';
  txHash?: string;
  error?: string;
}

/** One chain as the omnichain relayer sees it: where packets are read from and verified/delivered to. */
export interface OmnichainSide {
  readonly eid: number;
  readonly chainId: string;
  /** Packets sent from this chain since the last call (each returned once). */
  poll(): Promise<OmniPacket[]>;
  /**
   * Sends the ops as consecutive txs of the relayer's key (a verification before the delivery it allows)
   * and resolves once each is committed or has failed.
   */
  submit(ops: RelayOp[]): Promise<RelayResult[]>;
}

export type PacketState = 'seen' | 'verified' | 'delivered' | 'failed';

export interface TrackedPacket {
  packet: OmniPacket;
  state: PacketState;
  seenAt: number;
  attempts: number;
  retryAt?: number;
  lastTx?: string;
}

export interface OmnichainRelayerOptions {
  sides: OmnichainSide[];
  /** Wait between a packet being seen and its verification (the DVN's confirmations). */
  delayMs?: number;
  /** Wait before a failed delivery is tried again. */
  retryDelayMs?: number;
  /**
   * Interval of the relayer's loop (`start`); when it follows a network, how soon a relay that did not
   * go through is tried again.
   */
  pollMs?: number;
  logger: Logger;
  now?: () => number;
}

export interface OmnichainRelayer {
  /** One pass: read new packets, verify the due ones, deliver the verified ones, retry the due failures. */
  tick(): Promise<void>;
  /** Polls on its own timer, every `pollMs`. */
  start(): void;
  /**
   * Serves a network that steps: called after each step, it runs a pass once the step is over (not
   * waiting for it: a relay waits for the next blocks), and between steps a timer wakes it only when a
   * wait ends.
   */
  follow(): void;
  stop(): Promise<void>;
  pause(): void;
  resume(): void;
  setDelay(ms: number): void;
  readonly paused: boolean;
  readonly delayMs: number;
  /** Tries failed deliveries now (all of them, or one by guid) on the next pass; returns how many. */
  retry(guid?: Hex): number;
  packets(): TrackedPacket[];
}

/**
 * The omnichain verifier and executor (a DVN and an executor in one): it watches `PacketSent` on every
 * chain, verifies each packet on its destination after the delay, then delivers it; a delivery whose
 * receiver reverts is retried after `retryDelayMs` or on demand.
 */
export function createOmnichainRelayer(options: OmnichainRelayerOptions): OmnichainRelayer {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const byEid = new Map(options.sides.map((s) => [s.eid, s]));
  const tracked = new Map<string, TrackedPacket>();
  let delayMs = options.delayMs ?? 0;
  const retryDelayMs = options.retryDelayMs ?? 5_000;
  const pollMs = options.pollMs ?? 200;
  let paused = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = true;
  let following = false;
  let passing = false;
  let again = false;

  /** Due ops of one destination: verifications past the delay, then the deliveries they and earlier ones allow. */
  const dueOps = (eid: number): Array<{ op: RelayOp; t: TrackedPacket }> => {
    const ops: Array<{ op: RelayOp; t: TrackedPacket }> = [];
    for (const t of tracked.values()) {
      if (t.packet.dstEid !== eid || t.state === 'delivered') continue;
      if (t.state === 'seen') {
        if (now() < t.seenAt + delayMs) continue;
        ops.push({ op: { kind: 'verify', packet: t.packet }, t });
      } else if (t.state === 'failed' && now() < (t.retryAt ?? 0)) continue;
      ops.push({ op: { kind: 'deliver', packet: t.packet }, t });
    }
    return ops;
  };

  const relayTo = async (side: OmnichainSide) => {
    const ops = dueOps(side.eid);
    if (ops.length === 0 || paused) return;
    let results: RelayResult[];
    try {
      results = await side.submit(ops.map((o) => o.op));
    } catch (err) {
      // Nothing is lost: the ops are due again on the next pass.
      logger.warn({ err, chain: side.chainId }, 'omnichain relay failed');
      return;
    }
    for (const [i, { op, t }] of ops.entries()) {
      const result = results[i]!;
      if (!result.ok) {
        logger.warn({ guid: t.packet.guid, kind: op.kind, error: result.error }, 'omnichain relay tx failed');
        continue;
      }
      if (op.kind === 'verify') {
        t.state = 'verified';
        continue;
      }
      t.attempts += 1;
      if (result.txHash) t.lastTx = result.txHash;
      if (result.outcome === 'delivered') t.state = 'delivered';
      else {
        t.state = 'failed';
        t.retryAt = now() + retryDelayMs;
        logger.info(
          { guid: t.packet.guid, dst: side.chainId, attempts: t.attempts },
          'omnichain delivery failed',
        );
      }
    }
  };

  const pass = async () => {
    if (paused) return;
    for (const side of options.sides) {
      for (const packet of await side.poll()) {
        if (!byEid.has(packet.dstEid) || tracked.has(packet.guid)) continue;
        tracked.set(packet.guid, { packet, state: 'seen', seenAt: now(), attempts: 0 });
      }
    }
    // Destinations are independent chains (nonces apart), so they are served side by side.
    await Promise.all(options.sides.map(relayTo));
  };

  /** When the next tracked packet is due: its verification delay or retry wait ends, or now to deliver it. */
  const nextDueAt = () => {
    let at: number | undefined;
    for (const t of tracked.values()) {
      const due =
        t.state === 'seen'
          ? t.seenAt + delayMs
          : t.state === 'failed'
            ? (t.retryAt ?? 0)
            : t.state === 'verified'
              ? Number.NEGATIVE_INFINITY
              : undefined;
      if (due !== undefined && (at === undefined || due < at)) at = due;
    }
    return at;
  };

  /** Sets the timer for the next wait that ends between steps (none while paused or nothing waits). */
  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    const at = paused || stopped ? undefined : nextDueAt();
    if (at === undefined) return;
    const wait = at - now();
    // Still due after a pass: its relay did not go through, so it is tried again a little later.
    timer = setTimeout(nudge, wait > 0 ? Math.min(wait, MAX_TIMER_MS) : pollMs);
  };

  /** One pass now, or right after the one running; a pass never queues more than one more. */
  const nudge = () => {
    if (stopped) return;
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    relayer
      .tick()
      .catch((err: unknown) => logger.error({ err }, 'omnichain relayer pass failed'))
      .finally(() => {
        passing = false;
        if (again) {
          again = false;
          nudge();
        } else schedule();
      });
  };

  /** A pass on the next turn of the event loop, outside the step that asked (its relays wait for blocks). */
  const soon = () => {
    if (!following) return;
    clearTimeout(timer);
    timer = setTimeout(nudge, 0);
  };

  const relayer: OmnichainRelayer = {
    tick() {
      running = running.then(pass, pass);
      return running;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      const loop = () => {
        if (stopped) return;
        relayer
          .tick()
          .catch((err: unknown) => logger.error({ err }, 'omnichain relayer pass failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(loop, pollMs);
          });
      };
      timer = setTimeout(loop, 0);
    },
    follow() {
      if (stopped) {
        stopped = false;
        following = true;
      }
      soon();
    },
    async stop() {
      stopped = true;
      following = false;
      if (timer) clearTimeout(timer);
      await running.catch(() => undefined);
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      soon();
    },
    setDelay(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`omnichain relayer: bad delay ${ms}`);
      delayMs = ms;
      if (following && !passing) schedule();
    },
    get paused() {
      return paused;
    },
    get delayMs() {
      return delayMs;
    },
    retry(guid) {
      let count = 0;
      for (const t of tracked.values()) {
        if (t.state !== 'failed' || (guid && t.packet.guid !== guid.toLowerCase())) continue;
        t.retryAt = 0;
        count += 1;
      }
      if (count > 0) soon();
      return count;
    },
    packets: () => [...tracked.values()],
  };
  return relayer;
}
