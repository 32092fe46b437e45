import { ibcHopState, type Outcome, outcomeOf, type TransferOutcome } from './state.js';
import type { ChainTx, Hop, TrackedChain, TrackedTransfer, TransferProgress } from './types.js';
import { type ClockOf, waitingFor } from './waiting.js';

/** `GET /v2/tx/status` as Skip Go API v2 answers it (snake_case, every field its clients read). */

export type ExplorerLink = (chainId: string, txHash: string) => string;

/** A chain's explorer page of a tx, or the node's own REST (or JSON-RPC-less) URL when it has none. */
export function explorerLinks(chains: readonly TrackedChain[]): ExplorerLink {
  const byId = new Map(chains.map((c) => [c.chainId, c]));
  return (chainId, txHash) => {
    const chain = byId.get(chainId);
    if (chain?.explorerTxUrl) return chain.explorerTxUrl.replace('{hash}', txHash);
    if (chain?.rest && !txHash.startsWith('0x'))
      return `${chain.rest.replace(/\/+$/, '')}/cosmos/tx/v1beta1/txs/${txHash}`;
    return '';
  };
}

function chainTx(tx: ChainTx | undefined, link: ExplorerLink) {
  if (!tx) return null;
  return {
    chain_id: tx.chainId,
    tx_hash: tx.txHash,
    explorer_link: link(tx.chainId, tx.txHash),
    on_chain_at: tx.time,
  };
}

function transferEvent(hop: Hop, link: ExplorerLink): Record<string, unknown> {
  const ends = { from_chain_id: hop.fromChainId, to_chain_id: hop.toChainId ?? '' };
  switch (hop.kind) {
    case 'ibc': {
      const errorAck = hop.acknowledge?.error ?? hop.written?.error;
      const error = hop.timeout
        ? { type: 'PACKET_ERROR_TIMEOUT', message: 'packet timed out', details: null }
        : errorAck !== undefined
          ? {
              type: 'PACKET_ERROR_ACKNOWLEDGEMENT',
              message: errorAck,
              details: { code: 1, message: errorAck },
            }
          : null;
      return {
        ibc_transfer: {
          ...ends,
          src_chain_id: hop.fromChainId,
          dst_chain_id: hop.toChainId ?? '',
          state: ibcHopState(hop),
          packet_txs: {
            send_tx: chainTx(hop.send, link),
            receive_tx: chainTx(hop.receive, link),
            acknowledge_tx: chainTx(hop.acknowledge, link),
            timeout_tx: chainTx(hop.timeout, link),
            error,
          },
        },
      };
    }
    case 'opinit':
      return {
        op_init_transfer: {
          ...ends,
          state: hop.receive ? 'OPINIT_TRANSFER_RECEIVED' : 'OPINIT_TRANSFER_SENT',
          txs: { send_tx: chainTx(hop.send, link), receive_tx: chainTx(hop.receive, link) },
          op_init_bridge_id: hop.bridgeId ?? null,
          direction: hop.direction,
          sequence: hop.sequence,
          success: hop.receive ? hop.receive.success : null,
          reason: hop.receive?.reason ?? null,
        },
      };
    case 'omnichain':
      return {
        layer_zero_transfer: {
          ...ends,
          state: hop.receive ? 'LAYER_ZERO_TRANSFER_RECEIVED' : 'LAYER_ZERO_TRANSFER_SENT',
          txs: {
            send_tx: chainTx(hop.send, link),
            receive_tx: chainTx(hop.receive, link),
            compose_tx: null,
            error_tx: hop.receive ? null : chainTx(hop.alert, link),
          },
          guid: hop.guid,
          nonce: hop.nonce,
          src_eid: hop.srcEid,
          dst_eid: hop.dstEid,
        },
      };
  }
}

const blocking = (index: number | null) => (index === null ? null : { transfer_sequence_index: index });

/**
 * `clockOf` tells the destinations' latest blocks, by which a packet's timeout is judged: without it
 * (none known) no packet is shown waiting on its relay.
 */
export function statusJson(
  progress: TransferProgress,
  outcome: Outcome,
  link: ExplorerLink,
  clockOf: ClockOf = () => undefined,
) {
  const events = progress.hops.map((hop) => transferEvent(hop, link));
  const terminal = ['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED'].includes(
    outcome.state,
  );
  const abandoned = outcome.state === 'STATE_ABANDONED';
  const transferJson = (t: TransferOutcome) => ({
    state: abandoned ? 'STATE_ABANDONED' : t.state,
    transfer_sequence: t.hops.map((i) => events[i]!),
    next_blocking_transfer: terminal
      ? null
      : blocking(t.nextBlocking === null ? null : t.hops.indexOf(t.nextBlocking)),
    transfer_asset_release: t.release,
    // An abandoned transfer says why in each entry, as its top level does.
    error: abandoned ? (t.error ?? outcome.error) : t.error,
    // weft's own (Skip has no such field): what the transfer waits on that will happen, while pending.
    waiting_for: terminal ? null : waitingFor(progress, t, clockOf),
  });
  const next = terminal
    ? null
    : (outcome.transfers.find((t) => t.nextBlocking !== null)?.nextBlocking ?? null);
  // A source tx that started no transfer (not seen yet, failed, moved nothing across chains, or abandoned
  // unseen) still gets one entry saying what the top level says, as Skip's docs show a failed one (an entry
  // with an empty transfer_sequence): @skip-go/client calls a tx final from `transfers[0].state`
  // (`subscribeToRouteStatus`) and would poll such a tx for ever.
  const transfers =
    outcome.transfers.length > 0
      ? outcome.transfers.map(transferJson)
      : [
          {
            state: outcome.state,
            transfer_sequence: [],
            next_blocking_transfer: null,
            transfer_asset_release: outcome.release,
            error: outcome.error,
            waiting_for: null,
          },
        ];
  return {
    transfers,
    state: outcome.state,
    transfer_sequence: events,
    next_blocking_transfer: blocking(next),
    transfer_asset_release: outcome.release,
    error: outcome.error,
    status: terminal ? 'STATE_COMPLETED' : outcome.state,
  };
}

/**
 * One transfer of `GET /v2/tx/recent` (a weft extension): `progress` is what `GET /v2/tx/status` answers
 * from (the tracker's memory for a transfer it holds, else the row), so both answer the same state.
 */
export function recentJson(
  transfer: Pick<TrackedTransfer, 'chainId' | 'txHash' | 'state' | 'createdAt'> & { updatedAt: string },
  progress: TransferProgress | undefined,
) {
  return {
    chain_id: transfer.chainId,
    tx_hash: transfer.txHash,
    // A row whose progress does not read (`progress-codec.ts`) is listed in its stored state.
    state: progress ? outcomeOf(progress).state : transfer.state,
    created_at: transfer.createdAt,
    updated_at: transfer.updatedAt,
  };
}
