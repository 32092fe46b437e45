import type { TrackedTransfer } from './types.js';
import { type ClockOf, waitsOnSomething } from './waiting.js';

/**
 * When the claim round gives up on a held transfer, Skip's two windows: a source tx not seen on its
 * chain within `unseenAfterMs`, or no progress within `abandonAfterMs`. A transfer that waits on
 * something that will happen (`waiting.ts`: a withdrawal until its claim, a packet until its timeout
 * passes on the destination) is not idle, however long it waits: the window runs from the last time the
 * claim round saw it wait, so it starts only once nothing is left but what a relayer or an executor may
 * or may not do.
 *
 * A packet whose timeout has passed can no longer be received; what is left is the relay of its timeout
 * back to the sender, which refunds it. A relayer can still do that at any later time, but so can it
 * relay an ack late, and nothing tells a slow relayer from none at all: such a packet gets the window
 * from the moment its timeout was seen passed (not from its send, which may be long before), then is
 * abandoned as Skip does. Tracking it again (`track` revives an abandoned transfer) finds the timeout
 * once a relayer has relayed it.
 */

export interface IdleClock {
  /** When the transfer last advanced (ms). */
  lastProgressMs: number;
  /** When the claim round last saw it wait on something that will happen (ms; 0 before). */
  waitedAtMs: number;
}

export interface AbandonWindows {
  abandonAfterMs: number;
  unseenAfterMs: number;
}

export type IdleVerdict = { kind: 'waiting' } | { kind: 'abandon'; reason: string } | { kind: 'live' };

export function idleVerdict(
  transfer: TrackedTransfer,
  idle: IdleClock,
  nowMs: number,
  windows: AbandonWindows,
  clockOf: ClockOf,
): IdleVerdict {
  const seconds = (ms: number) => Math.round(ms / 1000);
  if (!transfer.progress.source) {
    return nowMs - idle.lastProgressMs > windows.unseenAfterMs
      ? {
          kind: 'abandon',
          reason: `source tx not seen on ${transfer.chainId} within ${seconds(windows.unseenAfterMs)} s`,
        }
      : { kind: 'live' };
  }
  if (waitsOnSomething(transfer.progress, clockOf)) return { kind: 'waiting' };
  return nowMs - Math.max(idle.lastProgressMs, idle.waitedAtMs) > windows.abandonAfterMs
    ? { kind: 'abandon', reason: `no progress for ${seconds(windows.abandonAfterMs)} s` }
    : { kind: 'live' };
}
