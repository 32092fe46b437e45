import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { event } from '../../events.js';
import type { AbciEvent } from '../../types.js';
import type { ChannelEnd } from './store.js';

/** The packet events of ibc-go v8's channel keeper (`core/04-channel/keeper/events.go`). */

export const heightString = (h: { revisionNumber: bigint; revisionHeight: bigint } | undefined) =>
  `${h?.revisionNumber ?? 0n}-${h?.revisionHeight ?? 0n}`;

const timeoutAndRoute = (packet: Packet) => ({
  packet_timeout_height: heightString(packet.timeoutHeight),
  packet_timeout_timestamp: packet.timeoutTimestamp.toString(),
  packet_sequence: packet.sequence.toString(),
  packet_src_port: packet.sourcePort,
  packet_src_channel: packet.sourceChannel,
  packet_dst_port: packet.destinationPort,
  packet_dst_channel: packet.destinationChannel,
});

const withData = (packet: Packet) => {
  const data = Buffer.from(packet.data);
  return {
    packet_data: data.toString('utf8'),
    packet_data_hex: data.toString('hex'),
    ...timeoutAndRoute(packet),
  };
};

const channelMessage = () => event('message', { module: 'ibc_channel' });

export function sendPacketEvents(packet: Packet, channel: ChannelEnd): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('send_packet', {
      ...withData(packet),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function recvPacketEvents(packet: Packet, channel: ChannelEnd): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('recv_packet', {
      ...withData(packet),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function writeAckEvents(packet: Packet, channel: ChannelEnd, ack: Uint8Array): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  const ackBytes = Buffer.from(ack);
  return [
    event('write_acknowledgement', {
      ...withData(packet),
      packet_ack: ackBytes.toString('utf8'),
      packet_ack_hex: ackBytes.toString('hex'),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function acknowledgePacketEvents(packet: Packet, channel: ChannelEnd): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('acknowledge_packet', {
      ...timeoutAndRoute(packet),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function timeoutPacketEvents(packet: Packet, channel: ChannelEnd): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('timeout_packet', {
      ...timeoutAndRoute(packet),
      connection_id: connection,
      packet_channel_ordering: channel.ordering,
    }),
    channelMessage(),
  ];
}
