import type { AbciEvent } from '../../../protocol/events.js';
import { eventsOfCosmosTx } from '../chain-events.js';
import { applyTx, chainDirectory, hopsOfSourceTx } from '../evidence.js';
import type { ChainTx, TransferProgress } from '../types.js';

/**
 * Evidence as the chains write it (ABCI events with ibc-go's, ICS-20's and OPinit's attributes), for the
 * tests of the state machine: a few chains, a tx per call, the events of a packet, a transfer started by
 * its source tx and the txs applied to it.
 */

export const chains = chainDirectory([
  { chainId: 'a-1', kind: 'cosmos' },
  { chainId: 'b-1', kind: 'cosmos', ibcPeers: { 'channel-6': 'c-1' } },
  { chainId: 'c-1', kind: 'cosmos' },
  { chainId: 'l1-1', kind: 'cosmos', isL1: true },
  { chainId: 'l2-1', kind: 'cosmos', opBridgeId: '7' },
  // Unlike a-1, a sender whose registry names the chain at the far end of its channel.
  { chainId: 'p-1', kind: 'cosmos', ibcPeers: { 'channel-0': 'b-1' } },
]);

let heights = 10;
export const tx = (chainId: string): ChainTx => ({
  chainId,
  txHash: (heights++).toString(16).toUpperCase().padStart(64, '0'),
  height: heights,
  time: '2026-01-01T00:00:00Z',
});

export const ev = (type: string, attributes: Record<string, string>): AbciEvent => ({
  type,
  attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })),
});

export const packet = (src: string, dst: string, sequence: string, extra: Record<string, string> = {}) =>
  ({
    packet_src_port: 'transfer',
    packet_src_channel: src,
    packet_dst_port: 'transfer',
    packet_dst_channel: dst,
    packet_sequence: sequence,
    msg_index: '0',
    ...extra,
  }) as Record<string, string>;

export const data = (denom: string) => JSON.stringify({ denom, amount: '100', sender: 's', receiver: 'r' });

/** A transfer started by a source tx with these events. */
export function started(chainId: string, events: AbciEvent[]): TransferProgress {
  const source = tx(chainId);
  const parsed = eventsOfCosmosTx(events);
  return { source: { ...source, code: 0 }, hops: hopsOfSourceTx(source, parsed, chains), watch: {} };
}

export const apply = (progress: TransferProgress, chainId: string, events: AbciEvent[]) =>
  applyTx(progress, tx(chainId), eventsOfCosmosTx(events), chains);
