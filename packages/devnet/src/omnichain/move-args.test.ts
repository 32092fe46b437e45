import { bcs } from '@initia/initia.js';
import { describe, expect, it } from 'vitest';
import { decodeOmniArgs } from './move-args.js';

describe('omnichain entry-function arguments', () => {
  const params = ['u32', 'vector<u8>', 'u64', 'bool', 'address'] as const;

  it('reads BCS arguments as initia.js encodes them', () => {
    const address = `0x${'ab'.repeat(32)}`;
    const args = [
      bcs.u32().serialize(40_123).toBytes(),
      bcs
        .byteVector()
        .serialize(Uint8Array.of(1, 2, 3))
        .toBytes(),
      bcs
        .u64()
        .serialize(2n ** 63n)
        .toBytes(),
      bcs.bool().serialize(true).toBytes(),
      bcs.address().serialize(address).toBytes(),
    ];
    const [eid, bytes, amount, flag, addr] = decodeOmniArgs(params, args);
    expect(eid).toBe(40_123);
    expect(bytes).toEqual(Uint8Array.of(1, 2, 3));
    expect(amount).toBe(2n ** 63n);
    expect(flag).toBe(true);
    expect(Buffer.from(addr as Uint8Array).toString('hex')).toBe('ab'.repeat(32));
  });

  it('reads MsgExecuteJSON arguments (u64 as a string, bytes and addresses as hex)', () => {
    const [eid, bytes, amount, flag, addr] = decodeOmniArgs(params, [
      '40123',
      '"0x0102"',
      '"7"',
      'false',
      '"0x1"',
    ]);
    expect([eid, amount, flag]).toEqual([40_123, 7n, false]);
    expect(bytes).toEqual(Uint8Array.of(1, 2));
    expect((addr as Uint8Array)[31]).toBe(1);
  });

  it('refuses arguments of the wrong shape or count as movevm does', () => {
    expect(() => decodeOmniArgs(['u32'], [Uint8Array.of(1, 2)])).toThrow(/FAILED_TO_DESERIALIZE_ARGUMENT/);
    expect(() => decodeOmniArgs(['u64'], ['7'])).toThrow(/FAILED_TO_DESERIALIZE_ARGUMENT/);
    expect(() => decodeOmniArgs(['u32', 'u32'], ['1'])).toThrow(/NUMBER_OF_ARGUMENTS_MISMATCH/);
  });
});
