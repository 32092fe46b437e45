import { describe, expect, it } from 'vitest';
import { accAddressFromString, hexToBytesPadded, moveObjectAddress } from './account-address.js';

const hexOf = (input: string, prefix = 'init') => accAddressFromString(input, prefix)?.hex ?? null;

describe("rollytics' AccAddressFromString", () => {
  it('reads bech32 of the chain prefix only', () => {
    expect(hexOf('init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tn')).toBe(
      '7e5f4552091a69125d5dfcb7b8c2659029395bdf',
    );
    expect(hexOf('init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tn', 'mini')).toBeNull();
    expect(hexOf('init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tx')).toBeNull();
  });

  it('trims hex and pads it to 20 bytes, or 32 when longer', () => {
    expect(hexOf('0x1')).toBe(`${'0'.repeat(39)}1`);
    expect(hexOf(`0x${'0'.repeat(24)}${'ab'.repeat(20)}`)).toBe('ab'.repeat(20));
    expect(hexOf(`0x${'cd'.repeat(21)}`)).toBe(`${'0'.repeat(22)}${'cd'.repeat(21)}`);
    expect(hexOf('0xABCDEF')).toBe(`${'0'.repeat(34)}abcdef`);
    expect(hexOf(`0x${'1'.repeat(65)}`)).toBeNull();
    expect(hexOf('0xzz')).toBeNull();
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
  });
});
