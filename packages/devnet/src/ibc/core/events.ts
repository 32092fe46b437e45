import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { packetDataAttributes, packetRouteAttributes } from 'weft/protocol/ibc-events.js';
import { event } from '../../events.js';
import type { AbciEvent } from '../../types.js';
import type { ChannelEnd } from './store.js';

/** The packet events of ibc-go v8's channel keeper (`core/04-channel/keeper/events.go`). */

/** What a packet event says of its channel: its ordering and its connection. */
export type EventChannel = Pick<ChannelEnd, 'ordering' | 'connectionHops'>;

const channelMessage = () => event('message', { module: 'ibc_channel' });

export function sendPacketEvents(packet: Packet, channel: EventChannel): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('send_packet', {
      ...packetDataAttributes(packet),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function recvPacketEvents(packet: Packet, channel: EventChannel): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('recv_packet', {
      ...packetDataAttributes(packet),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function writeAckEvents(packet: Packet, channel: EventChannel, ack: Uint8Array): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  const ackBytes = Buffer.from(ack);
  return [
    event('write_acknowledgement', {
      ...packetDataAttributes(packet),
      packet_ack: ackBytes.toString('utf8'),
      packet_ack_hex: ackBytes.toString('hex'),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function acknowledgePacketEvents(packet: Packet, channel: EventChannel): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('acknowledge_packet', {
      ...packetRouteAttributes(packet),
      packet_channel_ordering: channel.ordering,
      packet_connection: connection,
      connection_id: connection,
    }),
    channelMessage(),
  ];
}

export function timeoutPacketEvents(packet: Packet, channel: EventChannel): AbciEvent[] {
  const connection = channel.connectionHops[0]!;
  return [
    event('timeout_packet', {
      ...packetRouteAttributes(packet),
      connection_id: connection,
      packet_channel_ordering: channel.ordering,
    }),
    channelMessage(),
  ];
}
