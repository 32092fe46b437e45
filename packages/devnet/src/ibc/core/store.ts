import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { StateReader, StateStore } from '../../state/store.js';

/**
 * ibc-go's host store of one chain, kept minimal: clients and connections are named only (proofs are not
 * verified), channel ends carry their counterparty and version, and packets leave commitments, receipts
 * and acknowledgement hashes under the keys ibc-go's host paths describe.
 */

export interface ChannelEnd {
  portId: string;
  channelId: string;
  state: 'STATE_OPEN' | 'STATE_CLOSED';
  ordering: 'ORDER_UNORDERED';
  counterparty: { portId: string; channelId: string };
  connectionHops: string[];
  version: string;
  /** The counterparty chain's id and this chain's client of it. */
  clientId: string;
  counterpartyChainId: string;
  /** The counterparty's connection and client of this chain (`connection-N`, `07-tendermint-N`). */
  counterpartyConnectionId?: string;
  counterpartyClientId?: string;
}

export const ibcKeys = {
  channel: (channelId: string) => `ibc/channel/${channelId}`,
  channels: 'ibc/channel',
  nextChannel: 'ibc/next-channel',
  nextSequenceSend: (port: string, channel: string) => `ibc/seq/send/${port}/${channel}`,
  nextSequenceRecv: (port: string, channel: string) => `ibc/seq/recv/${port}/${channel}`,
  nextSequenceAck: (port: string, channel: string) => `ibc/seq/ack/${port}/${channel}`,
  commitment: (port: string, channel: string, sequence: bigint) =>
    `ibc/commitment/${port}/${channel}/${sequence}`,
  commitments: (port: string, channel: string) => `ibc/commitment/${port}/${channel}`,
  receipt: (port: string, channel: string, sequence: bigint) => `ibc/receipt/${port}/${channel}/${sequence}`,
  ack: (port: string, channel: string, sequence: bigint) => `ibc/ack/${port}/${channel}/${sequence}`,
};

export function getChannel(state: StateReader, port: string, channelId: string): ChannelEnd | undefined {
  const raw = state.get(ibcKeys.channel(channelId));
  if (raw === undefined) return undefined;
  const channel = JSON.parse(raw) as ChannelEnd;
  return channel.portId === port ? channel : undefined;
}

export function listChannels(state: StateReader): ChannelEnd[] {
  return state
    .group(ibcKeys.channels)
    .map((key) => JSON.parse(state.get(key)!) as ChannelEnd)
    .sort((a, b) => channelNumber(a.channelId) - channelNumber(b.channelId));
}

const channelNumber = (id: string) => Number(id.slice('channel-'.length));

/** Writes an open channel end (a finished handshake) with fresh sequences; used at genesis. */
export function putChannel(store: StateStore, channel: ChannelEnd): void {
  store.set(ibcKeys.channel(channel.channelId), JSON.stringify(channel));
  const next = Math.max(channelNumber(channel.channelId) + 1, Number(store.get(ibcKeys.nextChannel) ?? '0'));
  store.set(ibcKeys.nextChannel, String(next));
  for (const key of [ibcKeys.nextSequenceSend, ibcKeys.nextSequenceRecv, ibcKeys.nextSequenceAck]) {
    const k = key(channel.portId, channel.channelId);
    if (store.get(k) === undefined) store.set(k, '1');
  }
}

export const readSequence = (state: StateReader, key: string): bigint => BigInt(state.get(key) ?? '1');

const be64 = (n: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
};

/** `CommitPacket`: sha256(timeout timestamp ‖ revision number ‖ revision height ‖ sha256(data)), big-endian. */
export function packetCommitment(packet: Packet): string {
  const dataHash = sha256(packet.data);
  const bytes = new Uint8Array(56);
  bytes.set(be64(packet.timeoutTimestamp), 0);
  bytes.set(be64(packet.timeoutHeight?.revisionNumber ?? 0n), 8);
  bytes.set(be64(packet.timeoutHeight?.revisionHeight ?? 0n), 16);
  bytes.set(dataHash, 24);
  return Buffer.from(sha256(bytes)).toString('hex');
}

/** `CommitAcknowledgement`: sha256 of the acknowledgement bytes. */
export const ackCommitment = (ack: Uint8Array) => Buffer.from(sha256(ack)).toString('hex');
