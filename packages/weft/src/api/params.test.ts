import { describe, expect, it } from 'vitest';
import { toBech32 } from '../chain/address.js';
import { parseAccount, parseCollectionAddress, parseHeight, parseMsgTypes, parseTxHash } from './params.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('parseAccount', () => {
  const bytes = new Uint8Array(20).fill(0xab);
  it('reads bech32 with the prefix and hex in any case, with or without 0x', () => {
    for (const form of [toBech32('init', bytes), `0x${'ab'.repeat(20)}`, 'AB'.repeat(20)]) {
      expect(hex(parseAccount(form, 'init'))).toBe('ab'.repeat(20));
    }
    expect(hex(parseAccount(toBech32('init', new Uint8Array(32).fill(1)), 'init'))).toBe('01'.repeat(32));
  });

  it('trims leading zeros and pads to 20 bytes, or 32 when longer (as the indexer keys accounts)', () => {
    expect(hex(parseAccount(`0x${'0'.repeat(24)}${'ab'.repeat(20)}`, 'init'))).toBe('ab'.repeat(20));
    expect(hex(parseAccount('0x1', 'init'))).toBe(`${'0'.repeat(39)}1`);
    expect(hex(parseAccount(`0x${'cd'.repeat(21)}`, 'init'))).toBe(`${'0'.repeat(22)}${'cd'.repeat(21)}`);
    expect(hex(parseAccount(`0x${'0'.repeat(70)}1`, 'init'))).toBe(`${'0'.repeat(39)}1`);
    expect(hex(parseAccount(`0X${'AB'.repeat(20)}`, 'init'))).toBe('ab'.repeat(20));
  });

  it('reads the zero address the indexer stores', () => {
    for (const zero of [`0x${'0'.repeat(40)}`, `0x${'0'.repeat(64)}`, '0x0', '0X0', '00']) {
      expect(hex(parseAccount(zero, 'init')), zero).toBe('0'.repeat(40));
    }
  });

  it('refuses other prefixes, bad hex and empty values, naming the parameter', () => {
    const tooLong = toBech32('init', new Uint8Array(256).fill(1));
    for (const bad of [
      toBech32('cosmos', bytes),
      'init1xyz',
      '0x',
      '0X',
      '',
      `0x${'a'.repeat(65)}`,
      'zz',
      tooLong,
    ]) {
      expect(() => parseAccount(bad, 'init')).toThrow(/invalid value for account/);
    }
  });
});

describe('parseCollectionAddress', () => {
  it('pads Move object addresses to 32 bytes, others like accounts', () => {
    expect(hex(parseCollectionAddress('0x1234', 'move', 'init'))).toBe(`${'0'.repeat(60)}1234`);
    expect(hex(parseCollectionAddress('0x1234', 'evm', 'init'))).toBe(`${'0'.repeat(36)}1234`);
    expect(hex(parseCollectionAddress(toBech32('init', new Uint8Array(32).fill(7)), 'move', 'init'))).toBe(
      '07'.repeat(32),
    );
    expect(hex(parseCollectionAddress('0x0', 'move', 'init'))).toBe('0'.repeat(64));
    for (const bad of ['nope', '0x', '', `0x${'0'.repeat(65)}`]) {
      expect(() => parseCollectionAddress(bad, 'move', 'init'), bad).toThrow(/collection_addr/);
    }
    expect(() => parseCollectionAddress('0x', 'evm', 'init')).toThrow(/collection_addr/);
  });
});

describe('parseTxHash', () => {
  it('takes 64 hex digits in any case, with or without 0x', () => {
    for (const form of ['ab'.repeat(32), 'AB'.repeat(32), `0x${'ab'.repeat(32)}`, `0X${'Ab'.repeat(32)}`]) {
      expect(hex(parseTxHash(form))).toBe('ab'.repeat(32));
    }
    for (const bad of ['ab'.repeat(31), `${'ab'.repeat(32)}a`, 'g'.repeat(64), '']) {
      expect(() => parseTxHash(bad)).toThrow(/invalid value for tx_hash/);
    }
  });
});

describe('parseHeight', () => {
  it('takes positive integers only', () => {
    expect(parseHeight('42')).toBe(42);
    expect(parseHeight(7)).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'abc', '99999999999999999'])
      expect(() => parseHeight(bad)).toThrow(/height/);
  });
});

describe('parseMsgTypes', () => {
  it('splits commas, merges repeats, drops the leading "/" and blanks', () => {
    expect(parseMsgTypes(['/a.v1.MsgX, b.v1.MsgY', 'a.v1.MsgX', ''])).toEqual(['a.v1.MsgX', 'b.v1.MsgY']);
    expect(parseMsgTypes('c.v1.MsgZ')).toEqual(['c.v1.MsgZ']);
    expect(parseMsgTypes(undefined)).toBeUndefined();
    expect(parseMsgTypes([',', ' '])).toBeUndefined();
  });
});
