import {
  ibcDestinationKey,
  ibcSourceKey,
  omnichainKey,
  opDepositKey,
  opWithdrawalKey,
  type PacketId,
  type TrackEvent,
} from './chain-events.js';
import type { ChainTx, Hop, IbcHop, TrackedChain, TransferProgress } from './types.js';

/**
 * Recording evidence: the hops a tx starts, and what a later tx tells of a hop in flight. Every function
 * is idempotent (the same tx seen twice changes nothing) and order-tolerant (an ack seen before its
 * receive is kept), because followers replay blocks after a restart or a takeover.
 */

export interface ChainDirectory {
  all(): readonly TrackedChain[];
  byBridgeId(bridgeId: string): TrackedChain | undefined;
  byEid(eid: number): TrackedChain | undefined;
  get(chainId: string): TrackedChain | undefined;
  /** The L1, host of the OPinit bridges. */
  l1(): TrackedChain | undefined;
}

export function chainDirectory(chains: readonly TrackedChain[]): ChainDirectory {
  const byId = new Map(chains.map((c) => [c.chainId, c]));
  return {
    all: () => chains,
    get: (chainId) => byId.get(chainId),
    byBridgeId: (id) => chains.find((c) => c.opBridgeId === id),
    byEid: (eid) => chains.find((c) => c.omnichainEid === eid),
    l1: () => chains.find((c) => c.isL1),
  };
}

/** The hops a source tx starts: every packet it sends, deposit or withdrawal it initiates, OFT it sends. */
export function hopsOfSourceTx(tx: ChainTx, events: readonly TrackEvent[], chains: ChainDirectory): Hop[] {
  const hops: Hop[] = [];
  for (const event of events) {
    const hop = hopOfEvent(tx, event, chains);
    if (hop) hops.push(hop);
  }
  return hops;
}

function hopOfEvent(tx: ChainTx, event: TrackEvent, chains: ChainDirectory): Hop | undefined {
  switch (event.type) {
    case 'ibc_send':
      return ibcHop(tx, event, chains);
    case 'op_deposit':
      return {
        kind: 'opinit',
        direction: 'deposit',
        fromChainId: tx.chainId,
        toChainId: chains.byBridgeId(event.bridgeId)?.chainId,
        bridgeId: event.bridgeId,
        sequence: event.sequence,
        fromDenom: event.l1Denom,
        toDenom: event.l2Denom,
        amount: event.amount,
        send: tx,
      };
    case 'op_withdraw':
      return {
        kind: 'opinit',
        direction: 'withdrawal',
        fromChainId: tx.chainId,
        toChainId: chains.l1()?.chainId,
        bridgeId: chains.get(tx.chainId)?.opBridgeId,
        sequence: event.sequence,
        fromDenom: event.denom,
        toDenom: event.baseDenom,
        amount: event.amount,
        send: tx,
      };
    case 'omni_sent':
      return {
        kind: 'omnichain',
        fromChainId: tx.chainId,
        toChainId: chains.byEid(event.dstEid)?.chainId,
        guid: event.guid,
        srcEid: event.srcEid,
        dstEid: event.dstEid,
        sender: event.sender,
        nonce: event.nonce,
        amount: event.amount,
        send: tx,
      };
    default:
      return undefined;
  }
}

/**
 * The hop of a `send_packet`, with what the packet carries (its ICS-20 data and timeouts) and its
 * destination from the registry's channels, before any receive names it.
 */
function ibcHop(tx: ChainTx, sent: TrackEvent & { type: `ibc_${string}` }, chains: ChainDirectory): IbcHop {
  const toChainId = chains.get(tx.chainId)?.ibcPeers?.[sent.packet.srcChannel];
  return {
    kind: 'ibc',
    fromChainId: tx.chainId,
    ...(toChainId ? { toChainId } : {}),
    ...sent.packet,
    denom: sent.denom,
    amount: sent.amount,
    ...(sent.timeoutHeight ? { timeoutHeight: sent.timeoutHeight } : {}),
    ...(sent.timeoutTimestamp ? { timeoutTimestamp: sent.timeoutTimestamp } : {}),
    send: tx,
  };
}

const samePacket = (hop: IbcHop, p: PacketId) =>
  hop.sequence === p.sequence &&
  hop.srcPort === p.srcPort &&
  hop.srcChannel === p.srcChannel &&
  hop.dstPort === p.dstPort &&
  hop.dstChannel === p.dstChannel;

/** Sets `hop[field] = value` unless it holds that already; true when it changed. */
function record<H extends Hop, K extends keyof H>(hop: H, field: K, value: H[K]): boolean {
  if (JSON.stringify(hop[field]) === JSON.stringify(value)) return false;
  hop[field] = value;
  return true;
}

/**
 * Applies the transfer events of one tx to a transfer's hops. Returns true when anything new was learnt.
 * A receive that forwards the packet (its msg's events include a `send_packet`) adds the next hop.
 */
export function applyTx(
  progress: TransferProgress,
  tx: ChainTx,
  events: readonly TrackEvent[],
  chains: ChainDirectory,
): boolean {
  let changed = false;
  for (const event of events) {
    for (const hop of progress.hops) {
      if (hop.kind === 'ibc' && 'packet' in event && samePacket(hop, event.packet)) {
        changed = applyIbc(progress, hop, tx, event, events, chains) || changed;
      } else if (hop.kind === 'opinit') {
        if (event.type === 'op_finalize' && hop.direction === 'deposit') {
          if (event.denom !== hop.toDenom || event.sequence !== hop.sequence) continue;
          changed = record(hop, 'toChainId', tx.chainId) || changed;
          changed =
            record(hop, 'receive', { ...tx, success: event.success, reason: event.reason }) || changed;
          if (!event.success && event.reason?.startsWith('deposit failed')) {
            const refund = events.find((e) => e.type === 'op_withdraw');
            if (refund?.type === 'op_withdraw')
              changed = record(hop, 'refundSequence', refund.sequence) || changed;
          }
        } else if (event.type === 'op_claim' && event.bridgeId === hop.bridgeId) {
          if (hop.direction === 'deposit' && event.sequence === hop.refundSequence) {
            changed = record(hop, 'refund', tx) || changed;
          } else if (hop.direction === 'withdrawal' && event.sequence === hop.sequence) {
            changed = record(hop, 'toChainId', tx.chainId) || changed;
            changed = record(hop, 'receive', { ...tx, success: true }) || changed;
          }
        }
      } else if (hop.kind === 'omnichain' && 'nonce' in event && event.type !== 'omni_sent') {
        if (event.srcEid !== hop.srcEid || event.sender !== hop.sender || event.nonce !== hop.nonce) continue;
        // Nonces repeat across destinations: only the hop's destination answers it.
        if (hop.toChainId !== undefined && tx.chainId !== hop.toChainId) continue;
        changed = record(hop, 'toChainId', tx.chainId) || changed;
        if (event.type === 'omni_verified') changed = record(hop, 'verify', tx) || changed;
        else if (event.type === 'omni_delivered') changed = record(hop, 'receive', tx) || changed;
        else if (event.type === 'omni_alert' && !hop.receive)
          changed = record(hop, 'alert', { ...tx, reason: event.reason }) || changed;
      }
    }
  }
  return changed;
}

function applyIbc(
  progress: TransferProgress,
  hop: IbcHop,
  tx: ChainTx,
  event: TrackEvent & { type: `ibc_${string}` },
  events: readonly TrackEvent[],
  chains: ChainDirectory,
): boolean {
  // Both ends of a channel may have one id (an L1's channel-0 to a rollup's channel-0): a packet id then
  // names a packet each way, so only the hop's destination, never its sender, receives this one.
  const received = event.type === 'ibc_recv' || event.type === 'ibc_write_ack';
  if (received && (tx.chainId === hop.fromChainId || (hop.toChainId && tx.chainId !== hop.toChainId)))
    return false;
  switch (event.type) {
    case 'ibc_recv': {
      let changed = record(hop, 'toChainId', tx.chainId);
      changed = record(hop, 'receive', tx) || changed;
      // Packet-forward middleware: the same msg sends the packet on to the next chain.
      const forward = events.find(
        (e) => e.type === 'ibc_send' && e.msgIndex === event.msgIndex && e !== event,
      );
      if (forward?.type === 'ibc_send' && hop.forwardedTo === undefined) {
        progress.hops.push(ibcHop(tx, forward, chains));
        hop.forwardedTo = progress.hops.length - 1;
        changed = true;
      }
      return changed;
    }
    case 'ibc_write_ack':
      return record(hop, 'written', { tx, error: event.ackError });
    case 'ibc_ack':
      if (tx.chainId !== hop.fromChainId) return false;
      return record(hop, 'acknowledge', { ...tx, error: event.ackError ?? hop.written?.error });
    case 'ibc_timeout':
      if (tx.chainId !== hop.fromChainId) return false;
      return record(hop, 'timeout', tx);
    default:
      return false;
  }
}

/** The keys a hop still waits on: the evidence a follower's block may bring. */
export function waitKeys(hop: Hop): string[] {
  switch (hop.kind) {
    case 'ibc':
      if (hop.timeout || hop.acknowledge) return [];
      return [ibcDestinationKey(hop), ibcSourceKey(hop.fromChainId, hop)];
    case 'opinit':
      if (hop.direction === 'withdrawal')
        return hop.receive ? [] : [opWithdrawalKey(hop.bridgeId ?? '', hop.sequence)];
      if (!hop.receive) return [opDepositKey(hop.toDenom, hop.sequence)];
      if (hop.refundSequence && !hop.refund && hop.bridgeId)
        return [opWithdrawalKey(hop.bridgeId, hop.refundSequence)];
      return [];
    case 'omnichain':
      return hop.receive || !hop.toChainId
        ? []
        : [omnichainKey(hop.toChainId, hop.srcEid, hop.sender, hop.nonce)];
  }
}
