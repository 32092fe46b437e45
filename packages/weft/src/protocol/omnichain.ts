import { concatHex, type Hex, keccak256, numberToHex, size, sliceHex } from 'viem';

/** A LayerZero v1 packet (PacketV1Codec): what `PacketSent` carries and what both sides hash. */
export interface OmniPacket {
  nonce: bigint;
  srcEid: number;
  /** bytes32 of the sending OApp. */
  sender: Hex;
  dstEid: number;
  /** bytes32 of the receiving OApp. */
  receiver: Hex;
  guid: Hex;
  message: Hex;
}

export const PACKET_VERSION = 1;
const HEADER_BYTES = 1 + 8 + 4 + 32 + 4 + 32;

/** keccak256(nonce ‖ srcEid ‖ sender ‖ dstEid ‖ receiver), packed. */
export function packetGuid(p: Omit<OmniPacket, 'guid' | 'message'>): Hex {
  return keccak256(
    concatHex([
      numberToHex(p.nonce, { size: 8 }),
      numberToHex(p.srcEid, { size: 4 }),
      p.sender,
      numberToHex(p.dstEid, { size: 4 }),
      p.receiver,
    ]),
  );
}

/** What `verify` records and `lzReceive` checks: keccak256(guid ‖ message). */
export const payloadHash = (p: Pick<OmniPacket, 'guid' | 'message'>): Hex =>
  keccak256(concatHex([p.guid, p.message]));

export function encodePacket(p: OmniPacket): Hex {
  return concatHex([
    numberToHex(PACKET_VERSION, { size: 1 }),
    numberToHex(p.nonce, { size: 8 }),
    numberToHex(p.srcEid, { size: 4 }),
    p.sender,
    numberToHex(p.dstEid, { size: 4 }),
    p.receiver,
    p.guid,
    p.message,
  ]);
}

export function decodePacket(encoded: Hex): OmniPacket {
  if (size(encoded) < HEADER_BYTES + 32 || Number(sliceHex(encoded, 0, 1)) !== PACKET_VERSION)
    throw new Error('omnichain: not a v1 packet');
  return {
    nonce: BigInt(sliceHex(encoded, 1, 9)),
    srcEid: Number(sliceHex(encoded, 9, 13)),
    sender: sliceHex(encoded, 13, 45),
    dstEid: Number(sliceHex(encoded, 45, 49)),
    receiver: sliceHex(encoded, 49, 81),
    guid: sliceHex(encoded, 81, 113),
    message: size(encoded) > 113 ? sliceHex(encoded, 113) : '0x',
  };
}

/** The OFT message: recipient bytes32 ‖ amount in shared decimals (uint64). */
export function encodeOftMessage(to: Hex, amountSD: bigint): Hex {
  return concatHex([to, numberToHex(amountSD, { size: 8 })]);
}

export function decodeOftMessage(message: Hex): { to: Hex; amountSD: bigint } {
  if (size(message) < 40) throw new Error('omnichain: OFT message too short');
  return { to: sliceHex(message, 0, 32), amountSD: BigInt(sliceHex(message, 32, 40)) };
}
