import { describe, expect, it } from 'vitest';
import { accAddressBytes, bech32AccountBytes, moveObjectBytes } from './account-address.js';
import { toBech32 } from './address.js';

const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('hex') : undefined);
const account = (input: string, prefix = 'init') => hex(accAddressBytes(input, prefix));

describe("rollytics' AccAddressFromString", () => {
  it('reads bech32 of the chain prefix only', () => {
    expect(account('init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tn')).toBe(
      '7e5f4552091a69125d5dfcb7b8c2659029395bdf',
    );
    expect(account('init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tn', 'mini')).toBeUndefined();
    expect(account('init10e0525sfrf53yh2aljmm3sn9jq5njk7l2kv4tx')).toBeUndefined();
    expect(account(toBech32('init', new Uint8Array(32).fill(1)))).toBe('01'.repeat(32));
  });

  it('keeps bech32 within the SDK bounds of 1 to 255 bytes', () => {
    expect(bech32AccountBytes(toBech32('init', new Uint8Array(255).fill(2)), 'init')).toHaveLength(255);
    expect(bech32AccountBytes(toBech32('init', new Uint8Array(256).fill(2)), 'init')).toBeUndefined();
    expect(bech32AccountBytes(toBech32('init', new Uint8Array(0)), 'init')).toBeUndefined();
  });

  it('trims hex and pads it to 20 bytes, or 32 when longer', () => {
    expect(account('0x1')).toBe(`${'0'.repeat(39)}1`);
    expect(account(`0x${'0'.repeat(24)}${'ab'.repeat(20)}`)).toBe('ab'.repeat(20));
    expect(account(`0x${'cd'.repeat(21)}`)).toBe(`${'0'.repeat(22)}${'cd'.repeat(21)}`);
    expect(account('0xABCDEF')).toBe(`${'0'.repeat(34)}abcdef`);
    expect(account('AB'.repeat(20))).toBe('ab'.repeat(20));
  });

  it('counts the digits left after trimming against the 64-digit bound', () => {
    expect(account(`0x${'0'.repeat(70)}1`)).toBe(`${'0'.repeat(39)}1`);
    expect(account(`0x${'1'.repeat(65)}`)).toBeUndefined();
  });

  it('reads the zero address, and empty hex as zero', () => {
    for (const zero of [`0x${'0'.repeat(40)}`, `0x${'0'.repeat(64)}`, '0x0', '0x', '']) {
      expect(account(zero), zero).toBe('0'.repeat(40));
    }
  });

  it('refuses what is neither, including an upper-case 0X', () => {
    for (const bad of ['0xzz', 'zz', '0X01', ' 0x1', toBech32('cosmos', new Uint8Array(20).fill(1))]) {
      expect(account(bad), bad).toBeUndefined();
    }
  });
});

describe('Move object addresses', () => {
  it('pads hex literals to 32 bytes without trimming them first', () => {
    expect(hex(moveObjectBytes('0xab1'))).toBe(`${'0'.repeat(61)}ab1`);
    expect(hex(moveObjectBytes('AB1'))).toBe(`${'0'.repeat(61)}ab1`);
    expect(hex(moveObjectBytes('0x0'))).toBe('0'.repeat(64));
    expect(moveObjectBytes(`0x${'0'.repeat(65)}`)).toBeUndefined();
  });

  it('refuses empty and non-hex literals', () => {
    for (const bad of ['0x', '', '0xzz', '0X1']) expect(moveObjectBytes(bad), bad).toBeUndefined();
  });
});
