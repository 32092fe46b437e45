import { receivedDenom as ics20ReceivedDenom, localDenom } from '../../protocol/ics20.js';
import type { Hop, IbcHop, StatusError, TransactionState, TransferProgress } from './types.js';

/**
 * The state machine, derived from the evidence (`evidence.ts`) each time it changes:
 *
 *   STATE_SUBMITTED ──source tx seen, code 0──▶ STATE_PENDING ──last hop delivered──▶ STATE_COMPLETED_SUCCESS
 *        │                                         │
 *        │ source tx failed ──▶ STATE_COMPLETED_ERROR (funds never left: released on the source)
 *        │                                         │ a hop failed, refund not yet back
 *        │                                         ▼
 *        │                                  STATE_PENDING_ERROR ──refund landed──▶ STATE_COMPLETED_ERROR
 *        └──── no progress for the abandon window (from any non-terminal state) ──▶ STATE_ABANDONED
 *              (not while it waits on something that will happen: `waiting.ts`, `idle.ts`)
 *
 * A transfer is one chain of hops from its source tx (an IBC packet and the packets forwarded from it,
 * an OPinit deposit or withdrawal, an omnichain OFT send); a source tx that starts several gives several
 * `transfers`, and the top-level state is the least advanced of them. Per hop:
 * - IBC: TRANSFER_PENDING (sent) → TRANSFER_RECEIVED (received; a forwarding or error-ack receive stays
 *   here) → TRANSFER_SUCCESS (a success ack written or acknowledged) | TRANSFER_FAILURE (an error ack
 *   acknowledged on the sender, or a timeout: the sender refunds). A failure further along a forward
 *   chain propagates back as error acks: PENDING_ERROR until the first hop's sender has refunded.
 * - OPinit: OPINIT_TRANSFER_SENT → OPINIT_TRANSFER_RECEIVED (`finalize_token_deposit` on the rollup, or the
 *   claim on the L1 for a withdrawal). A deposit whose hook failed is credited all the same:
 *   COMPLETED_ERROR with the asset released on the rollup. A deposit that failed goes back through a
 *   withdrawal: PENDING_ERROR until it is claimed on the L1, then COMPLETED_ERROR released there.
 * - Omnichain: LAYER_ZERO_TRANSFER_SENT → LAYER_ZERO_TRANSFER_RECEIVED (`PacketDelivered`). A failed
 *   delivery (`LzReceiveAlert`) is retried by the executor, so it stays SENT with its `error_tx`.
 * `next_blocking_transfer` is the first hop not yet done, null once terminal.
 */

export interface AssetRelease {
  chain_id: string;
  denom?: string;
  amount?: string | null;
  released: boolean;
}

export interface TransferOutcome {
  state: TransactionState;
  /** Indices into `progress.hops`, in transfer order. */
  hops: number[];
  nextBlocking: number | null;
  release: AssetRelease | null;
  error: StatusError | null;
}

export type IbcHopState = 'TRANSFER_PENDING' | 'TRANSFER_RECEIVED' | 'TRANSFER_SUCCESS' | 'TRANSFER_FAILURE';

export function ibcHopState(hop: IbcHop): IbcHopState {
  if (hop.timeout) return 'TRANSFER_FAILURE';
  if (hop.acknowledge) return hop.acknowledge.error === undefined ? 'TRANSFER_SUCCESS' : 'TRANSFER_FAILURE';
  if (hop.written && hop.written.error === undefined) return 'TRANSFER_SUCCESS';
  return hop.receive || hop.written ? 'TRANSFER_RECEIVED' : 'TRANSFER_PENDING';
}

/** True when the hop has brought the asset to its destination for good. */
function delivered(hop: Hop): boolean {
  switch (hop.kind) {
    case 'ibc':
      return ibcHopState(hop) === 'TRANSFER_SUCCESS';
    case 'opinit':
      return hop.receive?.success === true;
    case 'omnichain':
      return hop.receive !== undefined;
  }
}

/** ICS-20 denom on the receiving chain: the voucher `ibc/<SHA-256 of the trace>`, or the unwound denom. */
export function receivedDenom(hop: IbcHop): string | undefined {
  if (!hop.denom) return undefined;
  const route = {
    sourcePort: hop.srcPort,
    sourceChannel: hop.srcChannel,
    destinationPort: hop.dstPort,
    destinationChannel: hop.dstChannel,
  };
  return ics20ReceivedDenom(route, hop.denom);
}

/** The denom an IBC packet's sender holds (the packet carries the full trace, vouchers are hashed). */
const sentDenom = (denom: string | undefined) => (denom === undefined ? undefined : localDenom(denom));

/** The hop chains of a transfer: each hop not forwarded from another starts one. */
export function transferChains(progress: TransferProgress): number[][] {
  const forwarded = new Set<number>();
  for (const hop of progress.hops)
    if (hop.kind === 'ibc' && hop.forwardedTo !== undefined) forwarded.add(hop.forwardedTo);
  const chains: number[][] = [];
  for (let i = 0; i < progress.hops.length; i++) {
    if (forwarded.has(i)) continue;
    const chain = [i];
    let hop = progress.hops[i]!;
    while (hop.kind === 'ibc' && hop.forwardedTo !== undefined) {
      chain.push(hop.forwardedTo);
      hop = progress.hops[hop.forwardedTo]!;
    }
    chains.push(chain);
  }
  return chains;
}

function outcomeOfChain(progress: TransferProgress, indices: number[]): TransferOutcome {
  const hops = indices.map((i) => progress.hops[i]!);
  const first = hops[0]!;
  const last = hops.at(-1)!;
  const firstOpen = indices.find((i) => !delivered(progress.hops[i]!));
  const base = { hops: indices, nextBlocking: firstOpen ?? null };

  // IBC: an error anywhere along the forward chain comes back as error acks to the first sender.
  const ibcFailure = hops.find(
    (h): h is IbcHop =>
      h.kind === 'ibc' && (ibcHopState(h) === 'TRANSFER_FAILURE' || h.written?.error !== undefined),
  );
  if (ibcFailure && first.kind === 'ibc') {
    const refunded = ibcHopState(first) === 'TRANSFER_FAILURE';
    const message = ibcFailure.timeout
      ? `packet ${ibcFailure.srcChannel}/${ibcFailure.sequence} timed out`
      : `packet ${ibcFailure.srcChannel}/${ibcFailure.sequence} failed: ${ibcFailure.acknowledge?.error ?? ibcFailure.written?.error}`;
    return {
      ...base,
      state: refunded ? 'STATE_COMPLETED_ERROR' : 'STATE_PENDING_ERROR',
      nextBlocking: refunded ? null : base.nextBlocking,
      release: {
        chain_id: first.fromChainId,
        denom: sentDenom(first.denom),
        amount: first.amount ?? null,
        released: refunded,
      },
      error: { type: 'STATUS_ERROR_TRANSFER', message },
    };
  }

  if (first.kind === 'opinit' && first.receive && !first.receive.success) {
    const error: StatusError = {
      type: 'STATUS_ERROR_TRANSFER',
      message: first.receive.reason ?? 'deposit failed',
    };
    if (first.refundSequence === undefined) {
      // The hook failed; the deposit itself is credited on the rollup.
      return {
        ...base,
        nextBlocking: null,
        state: 'STATE_COMPLETED_ERROR',
        release: {
          chain_id: first.receive.chainId,
          denom: first.toDenom,
          amount: first.amount,
          released: true,
        },
        error,
      };
    }
    const refunded = first.refund !== undefined;
    return {
      ...base,
      nextBlocking: refunded ? null : base.nextBlocking,
      state: refunded ? 'STATE_COMPLETED_ERROR' : 'STATE_PENDING_ERROR',
      release: {
        chain_id: first.fromChainId,
        denom: first.fromDenom,
        amount: first.amount,
        released: refunded,
      },
      error,
    };
  }

  if (delivered(last) && (last.kind !== 'ibc' || last.forwardedTo === undefined)) {
    return {
      ...base,
      nextBlocking: null,
      state: 'STATE_COMPLETED_SUCCESS',
      release: {
        chain_id: last.toChainId ?? '',
        denom: last.kind === 'ibc' ? receivedDenom(last) : last.kind === 'opinit' ? last.toDenom : undefined,
        amount: last.amount ?? null,
        released: true,
      },
      error: null,
    };
  }
  return { ...base, state: 'STATE_PENDING', release: null, error: null };
}

const RANK: Record<TransactionState, number> = {
  STATE_SUBMITTED: 0,
  STATE_PENDING_ERROR: 1,
  STATE_PENDING: 2,
  STATE_ABANDONED: 3,
  STATE_COMPLETED_ERROR: 4,
  STATE_COMPLETED_SUCCESS: 5,
};

export interface Outcome {
  state: TransactionState;
  transfers: TransferOutcome[];
  error: StatusError | null;
  release: AssetRelease | null;
}

export function outcomeOf(progress: TransferProgress): Outcome {
  const { source } = progress;
  if (progress.abandoned) {
    const transfers =
      source && source.code === 0 ? transferChains(progress).map((c) => outcomeOfChain(progress, c)) : [];
    const error: StatusError = { type: 'STATUS_ERROR_UNKNOWN', message: progress.abandoned.reason };
    return {
      state: 'STATE_ABANDONED',
      transfers,
      error,
      release: transfers.find((t) => t.release)?.release ?? null,
    };
  }
  if (!source) return { state: 'STATE_SUBMITTED', transfers: [], error: null, release: null };
  if (source.code !== 0) {
    const error: StatusError = {
      type: 'STATUS_ERROR_TRANSACTION_EXECUTION',
      message: source.log || `tx failed with code ${source.code}`,
      details: { code: source.code, message: source.log ?? '' },
    };
    const release: AssetRelease = {
      chain_id: source.chainId,
      denom: source.denom,
      amount: source.amount ?? null,
      released: true,
    };
    return { state: 'STATE_COMPLETED_ERROR', transfers: [], error, release };
  }
  const transfers = transferChains(progress).map((c) => outcomeOfChain(progress, c));
  if (transfers.length === 0)
    return { state: 'STATE_COMPLETED_SUCCESS', transfers, error: null, release: null };
  const worst = transfers.reduce((a, b) => (RANK[b.state] < RANK[a.state] ? b : a));
  return { state: worst.state, transfers, error: worst.error, release: worst.release };
}

/** A short signature of what a status shows: each advance is logged with it. */
export function stepOf(progress: TransferProgress, state: string): string {
  const hops = progress.hops.map((h) => {
    if (h.kind === 'ibc') return ibcHopState(h);
    if (h.kind === 'opinit')
      return h.receive ? `OPINIT_RECEIVED${h.refund ? '_REFUNDED' : ''}` : 'OPINIT_SENT';
    return h.receive ? 'LZ_RECEIVED' : h.verify ? 'LZ_VERIFIED' : h.alert ? 'LZ_ALERT' : 'LZ_SENT';
  });
  return [state, ...hops].join(' ');
}
