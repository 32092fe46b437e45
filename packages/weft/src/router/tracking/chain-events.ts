import { decodeEventLog, type Hex, parseAbi, toEventSelector } from 'viem';
import { type AbciEvent, type Attributes, attributesOf } from '../../protocol/events.js';
import { type PacketEvent, packetOfEvent } from '../../protocol/ibc-events.js';
import { decodeTransferData, parseAck } from '../../protocol/ics20-packet.js';
import { decodeOftMessage, decodePacket, type OmniPacket } from '../../protocol/omnichain.js';
import {
  depositFinalized,
  depositInitiated,
  withdrawalFinalized,
  withdrawalInitiated,
} from '../../protocol/opinit-events.js';
import type { ChainTx } from './types.js';

/**
 * The events a transfer moves by, read from a tx's ABCI events (IBC, OPinit, the omnichain bridge's Move
 * side) or from EVM logs (the omnichain endpoint and OFT contracts). Each carries the key the tracker
 * indexes transfers in flight by, so one block is matched against every transfer with map lookups.
 */
export type TrackEvent =
  | {
      type: 'ibc_send' | 'ibc_recv' | 'ibc_write_ack' | 'ibc_ack' | 'ibc_timeout';
      packet: PacketId;
      /** `send_packet`: the ICS-20 packet data; `write_acknowledgement`: the ack's error, if any. */
      denom?: string;
      amount?: string;
      ackError?: string;
      /** `send_packet`: the packet's timeouts, absent when zero (`PacketTimeouts`). */
      timeoutHeight?: string;
      timeoutTimestamp?: string;
      msgIndex?: string;
    }
  | {
      type: 'op_deposit';
      bridgeId: string;
      sequence: string;
      l1Denom: string;
      l2Denom: string;
      amount: string;
    }
  | { type: 'op_finalize'; sequence: string; denom: string; success: boolean; reason?: string }
  | { type: 'op_withdraw'; sequence: string; denom: string; baseDenom: string; amount: string }
  | { type: 'op_claim'; bridgeId: string; sequence: string }
  | {
      type: 'omni_sent';
      guid: string;
      srcEid: number;
      dstEid: number;
      sender: string;
      nonce: string;
      amount?: string;
    }
  | { type: 'omni_verified' | 'omni_delivered'; srcEid: number; sender: string; nonce: string }
  | { type: 'omni_alert'; srcEid: number; sender: string; nonce: string; reason: string };

export interface PacketId {
  srcPort: string;
  srcChannel: string;
  dstPort: string;
  dstChannel: string;
  sequence: string;
}

/** An event with the tx it happened in. */
export type SeenEvent = TrackEvent & { tx: ChainTx };

const packetIdOf = ({ srcPort, srcChannel, dstPort, dstChannel, sequence }: PacketEvent): PacketId => ({
  srcPort,
  srcChannel,
  dstPort,
  dstChannel,
  sequence,
});

/** The error of an ICS-04 acknowledgement (`{"error": …}`), or undefined for a result or unreadable bytes. */
function ackErrorOf(ack: string): string | undefined {
  try {
    const parsed = parseAck(Buffer.from(ack));
    return parsed.success ? undefined : parsed.value || 'error acknowledgement';
  } catch {
    return undefined;
  }
}

/**
 * The timeouts `send_packet` carries: `packet_timeout_height` as `<revision>-<height>` and
 * `packet_timeout_timestamp` in ns of the destination's block time; ibc-go writes `0-0` and `0` for none.
 */
function timeoutsOf(packet: PacketEvent): { timeoutHeight?: string; timeoutTimestamp?: string } {
  const out: { timeoutHeight?: string; timeoutTimestamp?: string } = {};
  const { timeoutHeight: height, timeoutTimestamp: timestamp } = packet;
  if (/^\d+-\d+$/.test(height) && !/^0+-0+$/.test(height)) out.timeoutHeight = height;
  if (/^\d+$/.test(timestamp) && !/^0+$/.test(timestamp)) out.timeoutTimestamp = timestamp;
  return out;
}

/** The denom and amount of ICS-20 packet data; nothing for another application's packet. */
function ics20Data(text: string): { denom?: string; amount?: string } {
  try {
    // Another application's packet (ICS-721) decodes without these: empty reads as absent.
    const { denom, amount } = decodeTransferData(Buffer.from(text));
    return { denom: denom || undefined, amount: amount || undefined };
  } catch {
    return {};
  }
}

const IBC_TYPES: Record<string, 'ibc_send' | 'ibc_recv' | 'ibc_write_ack' | 'ibc_ack' | 'ibc_timeout'> = {
  send_packet: 'ibc_send',
  recv_packet: 'ibc_recv',
  write_acknowledgement: 'ibc_write_ack',
  acknowledge_packet: 'ibc_ack',
  timeout_packet: 'ibc_timeout',
};

/** The transfer events among a Cosmos tx's ABCI events, in their order. */
export function eventsOfCosmosTx(events: readonly AbciEvent[]): TrackEvent[] {
  const out: TrackEvent[] = [];
  for (const event of events) {
    const ibc = IBC_TYPES[event.type];
    const a = attributesOf(event);
    if (ibc) {
      const packet = packetOfEvent(a);
      const data = ibc === 'ibc_send' ? { ...ics20Data(packet.data), ...timeoutsOf(packet) } : {};
      out.push({
        type: ibc,
        packet: packetIdOf(packet),
        ...data,
        ackError: ibc === 'ibc_write_ack' ? ackErrorOf(packet.ack) : undefined,
        msgIndex: a.msg_index,
      });
      continue;
    }
    const omni = omnichainCosmosEvent(event.type, a);
    if (omni) {
      out.push(omni);
      continue;
    }
    switch (event.type) {
      case 'initiate_token_deposit': {
        const { bridgeId, l1Sequence, l1Denom, l2Denom, amount } = depositInitiated(a);
        out.push({ type: 'op_deposit', bridgeId, sequence: l1Sequence, l1Denom, l2Denom, amount });
        break;
      }
      case 'finalize_token_deposit': {
        const { l1Sequence, denom, success, reason } = depositFinalized(a);
        out.push({ type: 'op_finalize', sequence: l1Sequence, denom, success, reason });
        break;
      }
      case 'initiate_token_withdrawal': {
        const { l2Sequence, denom, baseDenom, amount } = withdrawalInitiated(a);
        out.push({ type: 'op_withdraw', sequence: l2Sequence, denom, baseDenom, amount });
        break;
      }
      case 'finalize_token_withdrawal': {
        const { bridgeId, l2Sequence } = withdrawalFinalized(a);
        out.push({ type: 'op_claim', bridgeId, sequence: l2Sequence });
        break;
      }
      case 'fungible_token_packet': {
        // ICS-20 tells an error ack it refunded on by a `fungible_token_packet {error}` after the ack.
        const last = out.at(-1);
        if (a.error !== undefined && last?.type === 'ibc_ack')
          last.ackError = a.error || 'error acknowledgement';
        break;
      }
    }
  }
  return out;
}

/** The omnichain bridge's Move side emits its events with the EVM contracts' names and fields. */
function omnichainCosmosEvent(type: string, a: Attributes): TrackEvent | undefined {
  switch (type) {
    case 'PacketSent':
      return sentOfPayload(a.encodedPayload as Hex);
    case 'OFTSent':
      return undefined;
    case 'PacketVerified':
    case 'PacketDelivered':
      return {
        type: type === 'PacketVerified' ? 'omni_verified' : 'omni_delivered',
        srcEid: Number(a.srcEid),
        sender: bytes32(a.sender),
        nonce: String(a.nonce ?? ''),
      };
    case 'LzReceiveAlert':
      return {
        type: 'omni_alert',
        srcEid: Number(a.srcEid),
        sender: bytes32(a.sender),
        nonce: String(a.nonce ?? ''),
        reason: a.reason ?? '',
      };
    default:
      return undefined;
  }
}

const bytes32 = (value: string | undefined): string => {
  const bare = String(value ?? '')
    .replace(/^0x/i, '')
    .toLowerCase();
  return `0x${bare.padStart(64, '0')}`;
};

/** `PacketSent`'s payload: a LayerZero v1 packet (`omnichain.ts`) and the OFT amount it carries, if any. */
function sentOfPayload(payload: Hex | undefined): TrackEvent | undefined {
  if (!payload || !/^0x[0-9a-fA-F]*$/.test(payload)) return undefined;
  let packet: OmniPacket;
  try {
    packet = decodePacket(payload);
  } catch {
    return undefined;
  }
  let amount: string | undefined;
  try {
    amount = decodeOftMessage(packet.message).amountSD.toString();
  } catch {}
  return {
    type: 'omni_sent',
    nonce: packet.nonce.toString(),
    srcEid: packet.srcEid,
    sender: packet.sender.toLowerCase(),
    dstEid: packet.dstEid,
    guid: packet.guid.toLowerCase(),
    amount,
  };
}

const ENDPOINT_ABI = parseAbi([
  'struct Origin { uint32 srcEid; bytes32 sender; uint64 nonce; }',
  'event PacketSent(bytes encodedPayload, bytes options, address sendLibrary)',
  'event PacketVerified(Origin origin, address receiver, bytes32 payloadHash)',
  'event PacketDelivered(Origin origin, address receiver)',
  'event LzReceiveAlert(address indexed receiver, address indexed executor, Origin origin, bytes32 guid, uint256 gas, uint256 value, bytes message, bytes extraData, bytes reason)',
]);

const SELECTORS = new Set(
  ENDPOINT_ABI.filter((item) => item.type === 'event').map((item) => toEventSelector(item)),
);

/** The omnichain endpoint events among an EVM receipt's logs. */
export function eventsOfEvmLogs(logs: ReadonlyArray<{ topics: Hex[]; data: Hex }>): TrackEvent[] {
  const out: TrackEvent[] = [];
  for (const log of logs) {
    if (!log.topics[0] || !SELECTORS.has(log.topics[0])) continue;
    let decoded: { eventName: string; args?: any };
    try {
      decoded = decodeEventLog({ abi: ENDPOINT_ABI, topics: log.topics as [Hex], data: log.data });
    } catch {
      continue;
    }
    const { eventName, args } = decoded;
    if (eventName === 'PacketSent') {
      const sent = sentOfPayload(args.encodedPayload);
      if (sent) out.push(sent);
      continue;
    }
    const origin = {
      srcEid: Number(args.origin.srcEid),
      sender: String(args.origin.sender).toLowerCase(),
      nonce: String(args.origin.nonce),
    };
    if (eventName === 'PacketVerified') out.push({ type: 'omni_verified', ...origin });
    else if (eventName === 'PacketDelivered') out.push({ type: 'omni_delivered', ...origin });
    else out.push({ type: 'omni_alert', ...origin, reason: alertReason(args.reason) });
  }
  return out;
}

/** A revert reason as the receiver returned it: the custom error's selector when it is not a string. */
function alertReason(reason: Hex): string {
  return reason && reason !== '0x' ? `reverted: ${reason.slice(0, 74)}` : 'reverted';
}

/**
 * The key a transfer in flight waits on and an event answers, so a block is matched by lookups.
 * IBC packets are named by both ends (channel ids repeat across chains); a packet's source side
 * (ack, timeout) also by the chain that sent it.
 */
export function keyOfEvent(event: TrackEvent, chainId: string): string | undefined {
  switch (event.type) {
    case 'ibc_recv':
    case 'ibc_write_ack':
      return ibcDestinationKey(event.packet);
    case 'ibc_ack':
    case 'ibc_timeout':
      return ibcSourceKey(chainId, event.packet);
    case 'op_finalize':
      return opDepositKey(event.denom, event.sequence);
    case 'op_claim':
      return opWithdrawalKey(event.bridgeId, event.sequence);
    case 'omni_verified':
    case 'omni_delivered':
    case 'omni_alert':
      return omnichainKey(chainId, event.srcEid, event.sender, event.nonce);
    default:
      return undefined;
  }
}

export const ibcDestinationKey = (p: PacketId) =>
  `ibc-dst|${p.srcPort}|${p.srcChannel}|${p.dstPort}|${p.dstChannel}|${p.sequence}`;
export const ibcSourceKey = (chainId: string, p: PacketId) =>
  `ibc-src|${chainId}|${p.srcPort}|${p.srcChannel}|${p.sequence}`;
export const opDepositKey = (l2Denom: string, l1Sequence: string) => `op-dep|${l2Denom}|${l1Sequence}`;
export const opWithdrawalKey = (bridgeId: string, l2Sequence: string) => `op-wd|${bridgeId}|${l2Sequence}`;
/** Nonces count per path (source, sender, destination, receiver): the destination chain is part of the key. */
export const omnichainKey = (chainId: string, srcEid: number, sender: string, nonce: string) =>
  `omni|${chainId}|${srcEid}|${sender}|${nonce}`;
