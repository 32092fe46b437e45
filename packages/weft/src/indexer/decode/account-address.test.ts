import { describe, expect, it } from 'vitest';
import { accAddressFromString, hexToBytesPadded, moveObjectAddress } from './account-address.js';

// The rules themselves are tested with `packages/weft/src/chain/account-address.ts`; these cover what the decoders add.

describe('accAddressFromString', () => {
  it('gives the bytes with their lowercase hex, or null', () => {
    const account = accAddressFromString('0xABCDEF', 'init');
    expect(account?.hex).toBe(`${'0'.repeat(34)}abcdef`);
    expect(Buffer.from(account?.bytes ?? []).toString('hex')).toBe(account?.hex);
    expect(accAddressFromString('init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tn', 'init')?.hex).toBe(
      '7e5f4552091a69125d5dfcb7b8c2659029395bdf',
    );
    expect(accAddressFromString('0xzz', 'init')).toBeNull();
  });

  it('remembers answers per prefix', () => {
    const bech32 = 'init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tn';
    expect(accAddressFromString(bech32, 'init')).toBe(accAddressFromString(bech32, 'init'));
    expect(accAddressFromString(bech32, 'mini')).toBeNull();
  });
});

describe('address bytes', () => {
  it('pads Move object literals to 32 bytes', () => {
    expect(moveObjectAddress('0xab1')?.hex).toBe(`${'0'.repeat(61)}ab1`);
    expect(moveObjectAddress('0x')).toBeNull();
  });

  it('reads odd-length hex with a leading zero', () => {
    expect([...hexToBytesPadded('0x100')]).toEqual([1, 0]);
    expect([...hexToBytesPadded('')]).toEqual([]);
    expect([...hexToBytesPadded('0XaBcD')]).toEqual([0xab, 0xcd]);
  });

  it('refuses text that is not hex, wherever the bad digit is', () => {
    for (const bad of ['0xzz', '0x12g4', `0x${'ab'.repeat(500)}x`, '0x 1']) {
      expect(() => hexToBytesPadded(bad)).toThrow(/invalid hex/);
    }
  });
});
