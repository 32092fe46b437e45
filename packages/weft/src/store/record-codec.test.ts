import { describe, expect, it } from 'vitest';
import { decodeRecord, decodeRecordBytes, encodeRecord, recordJson } from './record-codec.js';

const RECORD = JSON.stringify({
  txhash: 'AB12',
  height: '7',
  memo: 'héllo ✓',
  logs: [],
  events: [{ type: 'message', attributes: [{ key: 'sender', value: 'init1abc', index: true }] }],
});

/** `RECORD` as format 1 stored it (written by the codec before format 2). */
const RECORD_V1 = Buffer.from('AUNyk6OToRGyu8xBnQBI2so4vDInJ1/h0ZzJKLYj+4yCJJ2YlIyRqmNrAQ==', 'base64');

/** A Cosmos-tx-sized record: over 4 KB of text. */
const LARGE = JSON.stringify({
  events: Array.from({ length: 60 }, (_, i) => ({
    type: 'transfer',
    attributes: [{ key: 'amount', value: `${i * 7919}uinit`, index: true }],
  })),
  signatures: ['x'.repeat(88)],
});

describe('record codec', () => {
  it('gives back the text byte for byte, its length first (format 2)', () => {
    for (const text of [RECORD, LARGE, '']) {
      const stored = encodeRecord(text);
      expect(stored[0]).toBe(2);
      expect(decodeRecord(stored)).toBe(text);
    }
    expect(LARGE.length).toBeGreaterThan(4096);
    // Over 4 KB of text: a two-byte length after the format byte.
    const stored = encodeRecord(LARGE);
    expect([(stored[1]! & 0x7f) | ((stored[2]! & 0x7f) << 7), stored[1]! >= 0x80, stored[2]! < 0x80]).toEqual(
      [Buffer.byteLength(LARGE), true, true],
    );
  });

  it('still decodes format 1', () => {
    expect(decodeRecord(RECORD_V1)).toBe(RECORD);
  });

  it('inflates a record into a buffer of its size, not a 16 KB chunk', () => {
    // Records under 4 KB come from Node's shared 8 KB pool instead; the record cache copies those.
    const text = decodeRecordBytes(encodeRecord(LARGE));
    expect(text.buffer.byteLength).toBeLessThanOrEqual(text.length + 1);
  });

  it('reads a value inside a larger buffer (a driver row)', () => {
    const stored = encodeRecord(LARGE);
    const row = Buffer.concat([Buffer.from('prefix'), stored, Buffer.from('suffix')]);
    expect(decodeRecord(row.subarray(6, 6 + stored.length))).toBe(LARGE);
  });

  it('refuses what it cannot read', () => {
    expect(() => decodeRecord(Buffer.from([9, 1, 2]))).toThrow(
      expect.objectContaining({
        code: 'WEFT_ERR_STORE_FORMAT_UNKNOWN',
        message: 'stored record of unknown format 9',
      }),
    );
    expect(() => decodeRecord(Buffer.from([0]))).toThrow(/unknown format 0/);
    expect(() => decodeRecord(Buffer.from([1, 0xff, 0xff]))).toThrow(
      expect.objectContaining({
        code: 'WEFT_ERR_STORE_VALUE_MALFORMED',
        message: 'stored record does not inflate',
      }),
    );
    const stored = encodeRecord(RECORD);
    // The header says one byte more than the stream holds.
    const lying = Buffer.from(stored);
    lying[1] = lying[1]! + 1;
    expect(() => decodeRecord(lying)).toThrow(/header says/);
    expect(() => decodeRecord(Buffer.from([2, 0x80, 0x80]))).toThrow(/malformed length/);
    // A length no stream of its size could hold (2^34 bytes from 3): refused before any buffer is taken.
    expect(() => decodeRecord(Buffer.from([2, 0x80, 0x80, 0x80, 0x80, 0x40, 1, 2, 3]))).toThrow(
      'stored record says 17179869184 bytes, more than its 3-byte stream can hold',
    );
    expect(() => recordJson(Buffer.from([2, 0x80, 0x80, 0x80, 0x80, 0x40, 1, 2, 3]))).toThrow(/can hold/);
  });
});
