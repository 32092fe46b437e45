import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import {
  heightString,
  heightTimedOut,
  revisionNumber,
  timestampTimedOut,
} from 'weft/protocol/ibc-timeout.js';
import { type AbciEvent, type TxContext, TxError } from '../types.js';
import {
  recvPacketEvents as coreRecvPacketEvents,
  writeAckEvents as coreWriteAckEvents,
  type EventChannel,
} from './core/events.js';

/** The parts of ibc-go v8's core channel keeper a packet receive goes through. */

export interface ChannelEnd {
  connectionId: string;
  /** nft-transfer channels are unordered; ordered ones are not simulated. */
  ordering: 'ORDER_UNORDERED';
}

const receiptKey = (p: Packet) => `ibc/receipt/${p.destinationPort}/${p.destinationChannel}/${p.sequence}`;

const verificationFailed = (codespace: string, code: number, reason: string) =>
  new TxError(codespace, code, `receive packet verification failed: ${reason}`);

/**
 * `RecvPacket` of the channel keeper (proofs are not checked): the channel must exist, the packet must not have
 * timed out, and a packet already received is a no-op. Records the receipt; returns false for a no-op.
 */
export function receivePacket(ctx: TxContext, packet: Packet, channel: ChannelEnd | undefined): boolean {
  if (!channel) throw verificationFailed('channel', 3, `${packet.destinationChannel}: channel not found`);
  const selfHeight = {
    revisionNumber: revisionNumber(ctx.chain.chainId),
    revisionHeight: BigInt(ctx.height),
  };
  const timeout = packet.timeoutHeight;
  if (heightTimedOut(timeout, selfHeight)) {
    throw verificationFailed(
      'channel',
      40,
      `packet timeout elapsed: current height: ${heightString(selfHeight)}, timeout height ${heightString(timeout)}: timeout elapsed`,
    );
  }
  if (timestampTimedOut(packet.timeoutTimestamp, ctx.timeMs)) {
    throw verificationFailed(
      'channel',
      40,
      `packet timeout elapsed: current timestamp: ${BigInt(ctx.timeMs) * 1_000_000n}, timeout timestamp ${packet.timeoutTimestamp}: timeout elapsed`,
    );
  }
  if (ctx.store.get(receiptKey(packet)) !== undefined) return false;
  ctx.store.set(receiptKey(packet), '1');
  return true;
}

/** The channel as its packet events name it. */
const eventChannel = (channel: ChannelEnd): EventChannel => ({
  ordering: channel.ordering,
  connectionHops: [channel.connectionId],
});

/** `emitRecvPacketEvent`. */
export const recvPacketEvents = (packet: Packet, channel: ChannelEnd): AbciEvent[] =>
  coreRecvPacketEvents(packet, eventChannel(channel));

/** `emitWriteAcknowledgementEvent`. */
export const writeAckEvents = (packet: Packet, channel: ChannelEnd, ack: Uint8Array): AbciEvent[] =>
  coreWriteAckEvents(packet, eventChannel(channel), ack);

/** `convertToErrorEvents`: what an application emitted before its receive failed, with keys prefixed. */
export function toErrorEvents(events: AbciEvent[]): AbciEvent[] {
  const prefix = 'ibccallbackerror-';
  return events.map((e) => ({
    type: `${prefix}${e.type}`,
    attributes: e.attributes.map((a) => ({ ...a, key: `${prefix}${a.key}` })),
  }));
}
