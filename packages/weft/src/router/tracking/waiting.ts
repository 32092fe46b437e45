import {
  heightTimedOut,
  parseHeight,
  revisionNumber,
  timestampTimedOut,
} from '../../protocol/ibc-timeout.js';
import { ibcHopState, type TransferOutcome } from './state.js';
import type { Hop, IbcHop, TransferProgress } from './types.js';

/**
 * What a pending transfer waits on that will happen, whoever is slow: an OPinit withdrawal waits out its
 * output's finalization period (days on mainnet) until someone claims it on the L1, and an IBC packet may
 * wait hours on a relayer, until its timeout passes on the destination. Such a transfer is pending, not
 * stalled: the abandon window does not run while it waits (`idle.ts`), and its status says what it waits
 * for (`waiting_for` of each entry of `transfers`). What only a relayer or an executor can still do
 * (relay an ack or a timeout, finalize a deposit) has no deadline to tell progress from a halt, so the
 * window runs.
 */

/** The latest block a follower has read of a chain: height 0 before the first. */
export interface ChainClock {
  height: number;
  /** Its block time, ms. */
  timeMs: number;
}

/** A chain's clock while its node answers and its blocks advance; undefined otherwise or when not followed. */
export type ClockOf = (chainId: string) => ChainClock | undefined;

export type WaitingFor =
  | {
      /** A withdrawal (or a failed deposit's refund) until it is claimed on the L1. */
      type: 'OPINIT_FINALIZATION';
      /** Index of the hop in this transfer's `transfer_sequence`. */
      transfer_sequence_index: number;
      /** The chain the claim lands on (the L1; empty when the registry names none). */
      chain_id: string;
      op_init_bridge_id: string | null;
      /** The withdrawal's l2_sequence (a refund's own, not the deposit's l1_sequence). */
      l2_sequence: string;
    }
  | {
      /** A packet not yet received, whose timeout has not passed on the destination. */
      type: 'IBC_RELAY';
      transfer_sequence_index: number;
      /** The destination chain. */
      chain_id: string;
      /** `<revision>-<height>`, null when the packet has no timeout height. */
      timeout_height: string | null;
      /** ns of the destination's block time, null when the packet has no timeout timestamp. */
      timeout_timestamp: string | null;
    };

/**
 * Whether the destination has passed the packet's timeout (ibc-go's check: a height of the same revision
 * at or above the timeout height, a later revision, or a block time at or after the timeout timestamp):
 * from then on it can no longer be received, only timed out. Unknown (false) before a block is read.
 */
export function ibcTimeoutPassed(hop: IbcHop, destination: string, clock: ChainClock): boolean {
  if (clock.height === 0) return false;
  const timeout = parseHeight(hop.timeoutHeight ?? '');
  const own = { revisionNumber: revisionNumber(destination), revisionHeight: BigInt(clock.height) };
  return (
    heightTimedOut(timeout, own) ||
    (hop.timeoutTimestamp !== undefined && timestampTimedOut(BigInt(hop.timeoutTimestamp), clock.timeMs))
  );
}

/** What one hop, at `position` in its transfer, waits on that will happen, or null. */
function waitOfHop(hop: Hop, clockOf: ClockOf, position = 0): WaitingFor | null {
  if (hop.kind === 'opinit') {
    const withdrawal = hop.direction === 'withdrawal' && !hop.receive;
    const refund = hop.receive && !hop.receive.success && hop.refundSequence !== undefined && !hop.refund;
    if (!withdrawal && !refund) return null;
    return {
      type: 'OPINIT_FINALIZATION',
      transfer_sequence_index: position,
      chain_id: (withdrawal ? hop.toChainId : hop.fromChainId) ?? '',
      op_init_bridge_id: hop.bridgeId ?? null,
      l2_sequence: withdrawal ? hop.sequence : hop.refundSequence!,
    };
  }
  // A packet whose destination or timeout is unknown, or whose destination has gone silent, waits on
  // nothing the tracker can vouch for: the window runs as for any hop.
  if (hop.kind !== 'ibc' || ibcHopState(hop) !== 'TRANSFER_PENDING') return null;
  if (!hop.toChainId || (hop.timeoutHeight === undefined && hop.timeoutTimestamp === undefined)) return null;
  const clock = clockOf(hop.toChainId);
  if (!clock || ibcTimeoutPassed(hop, hop.toChainId, clock)) return null;
  return {
    type: 'IBC_RELAY',
    transfer_sequence_index: position,
    chain_id: hop.toChainId,
    timeout_height: hop.timeoutHeight ?? null,
    timeout_timestamp: hop.timeoutTimestamp ?? null,
  };
}

/** The first hop of a transfer (in transfer order) that waits on something that will happen, or null. */
export function waitingFor(
  progress: TransferProgress,
  transfer: TransferOutcome,
  clockOf: ClockOf,
): WaitingFor | null {
  for (const [position, index] of transfer.hops.entries()) {
    const wait = waitOfHop(progress.hops[index]!, clockOf, position);
    if (wait) return wait;
  }
  return null;
}

/** Whether any hop of the source tx waits on something that will happen (the abandon window waits too). */
export const waitsOnSomething = (progress: TransferProgress, clockOf: ClockOf) =>
  progress.hops.some((hop) => waitOfHop(hop, clockOf) !== null);
