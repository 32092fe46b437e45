import type { Attributes } from './events.js';
import { heightString, type IbcHeight } from './ibc-timeout.js';

/**
 * The packet an ibc-go channel event names (`send_packet`, `recv_packet`, `write_acknowledgement`,
 * `acknowledge_packet`, `timeout_packet`: ibc-go v8 `modules/core/04-channel/types/events.go`), as text.
 * Timeouts are as ibc-go writes them: `<revision>-<height>` and nanoseconds, `0-0` and `0` for none.
 */
export interface PacketEvent {
  sequence: string;
  srcPort: string;
  srcChannel: string;
  dstPort: string;
  dstChannel: string;
  timeoutHeight: string;
  timeoutTimestamp: string;
  /** `packet_data` (send, receive); the bytes as hex in `packet_data_hex`. */
  data: string;
  dataHex: string;
  /** `packet_ack` (write_acknowledgement); the bytes as hex in `packet_ack_hex`. */
  ack: string;
  ackHex: string;
}

export function packetOfEvent(a: Attributes): PacketEvent {
  return {
    sequence: a.packet_sequence ?? '',
    srcPort: a.packet_src_port ?? '',
    srcChannel: a.packet_src_channel ?? '',
    dstPort: a.packet_dst_port ?? '',
    dstChannel: a.packet_dst_channel ?? '',
    timeoutHeight: a.packet_timeout_height ?? '0-0',
    timeoutTimestamp: a.packet_timeout_timestamp ?? '0',
    data: a.packet_data ?? '',
    dataHex: a.packet_data_hex ?? '',
    ack: a.packet_ack ?? '',
    ackHex: a.packet_ack_hex ?? '',
  };
}

/** A packet as the channel keeper holds it (ibc-go `channeltypes.Packet`). */
export interface ChannelPacket {
  sequence: bigint;
  sourcePort: string;
  sourceChannel: string;
  destinationPort: string;
  destinationChannel: string;
  data: Uint8Array;
  timeoutHeight?: IbcHeight;
  timeoutTimestamp: bigint;
}

/** The attributes every packet event carries (`04-channel/keeper/events.go`): timeouts and route. */
export function packetRouteAttributes(packet: ChannelPacket): Attributes {
  return {
    packet_timeout_height: heightString(packet.timeoutHeight),
    packet_timeout_timestamp: packet.timeoutTimestamp.toString(),
    packet_sequence: packet.sequence.toString(),
    packet_src_port: packet.sourcePort,
    packet_src_channel: packet.sourceChannel,
    packet_dst_port: packet.destinationPort,
    packet_dst_channel: packet.destinationChannel,
  };
}

/** With the packet's data as text and as hex: `send_packet`, `recv_packet`, `write_acknowledgement`. */
export function packetDataAttributes(packet: ChannelPacket): Attributes {
  const data = Buffer.from(packet.data);
  return {
    packet_data: data.toString('utf8'),
    packet_data_hex: data.toString('hex'),
    ...packetRouteAttributes(packet),
  };
}
