import { keccak256, pad, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  decodeOftMessage,
  decodePacket,
  encodeOftMessage,
  encodePacket,
  packetGuid,
  payloadHash,
} from './omnichain.js';

describe('omnichain packet codec', () => {
  const header = {
    nonce: 7n,
    srcEid: 40_101,
    sender: pad('0x1234', { size: 32 }),
    dstEid: 40_202,
    receiver: pad('0xabcd', { size: 32 }),
  };

  it('lays a packet out as LayerZero PacketV1 and reads it back', () => {
    const guid = packetGuid(header);
    const message = encodeOftMessage(pad('0xbeef', { size: 32 }), 1_500_000n);
    const encoded = encodePacket({ ...header, guid, message });
    // version ‖ nonce ‖ srcEid ‖ sender ‖ dstEid ‖ receiver ‖ guid ‖ message
    expect(encoded.length).toBe(2 + 2 * (1 + 8 + 4 + 32 + 4 + 32 + 32 + 40));
    expect(encoded.slice(0, 2 + 2 + 16 + 8)).toBe(
      `0x01${'0'.repeat(15)}7${(40_101).toString(16).padStart(8, '0')}`,
    );
    expect(decodePacket(encoded)).toEqual({ ...header, guid, message });
    expect(decodeOftMessage(message)).toEqual({ to: pad('0xbeef', { size: 32 }), amountSD: 1_500_000n });
  });

  it('hashes guid and payload as the endpoint does (packed encodings)', () => {
    const guid = packetGuid(header);
    const packed = `0x${'0000000000000007'}${'00009ca5'}${header.sender.slice(2)}${'00009d0a'}${header.receiver.slice(2)}`;
    expect(guid).toBe(keccak256(packed as `0x${string}`));
    expect(payloadHash({ guid, message: '0x01' })).toBe(keccak256(`${guid}01`));
    expect(payloadHash({ guid, message: '0x02' })).not.toBe(payloadHash({ guid, message: '0x01' }));
  });

  it('refuses what is not a v1 packet', () => {
    expect(() => decodePacket('0x02')).toThrow();
    expect(() => decodePacket(toHex(new Uint8Array(200)))).toThrow(/v1/);
    expect(() => decodeOftMessage('0x00')).toThrow();
  });
});
