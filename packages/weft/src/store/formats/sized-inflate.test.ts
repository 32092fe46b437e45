import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DICTIONARY_1 } from './record-1.js';
import { sizedInflater } from './sized-inflate.js';

const texts = Array.from({ length: 40 }, (_, i) =>
  Buffer.from(JSON.stringify({ txhash: `${i}`.repeat(i + 1), events: [{ type: 'transfer', n: i * 7919 }] })),
);
const deflated = (text: Buffer) => deflateRawSync(text, { dictionary: DICTIONARY_1 });

describe('sized inflate', () => {
  it('decodes value after value with one zlib context', () => {
    const inflate = sizedInflater(DICTIONARY_1);
    for (let round = 0; round < 3; round++) {
      for (const text of texts) expect(inflate(deflated(text), text.length).equals(text)).toBe(true);
    }
    expect(inflate.contexts).toBe(1);
  });

  it('gives a bad value the one-shot decode’s error, and the next value its text', () => {
    const inflate = sizedInflater(DICTIONARY_1);
    const good = texts[7]!;
    const stream = deflated(good);
    const bad: Array<[Buffer, number, RegExp]> = [
      [Buffer.from([0xff, 0xff, 0xff]), 10, /invalid block type/],
      [stream.subarray(0, stream.length - 3), good.length, /unexpected end of file/],
    ];
    for (const [input, length, error] of bad) {
      expect(() => inflate(input, length)).toThrow(error);
      expect(inflate(stream, good.length).equals(good)).toBe(true);
    }
    // Each bad value closed the context it met: the next good one opened another.
    expect(inflate.contexts).toBe(3);
  });

  it('gives the whole text of a stream longer than said, and only what a shorter one holds', () => {
    const inflate = sizedInflater(DICTIONARY_1);
    const text = texts[20]!;
    expect(inflate(deflated(text), text.length - 5).equals(text)).toBe(true);
    expect(inflate(deflated(text), text.length + 5).equals(text)).toBe(true);
    expect(inflate(deflated(texts[3]!), texts[3]!.length).equals(texts[3]!)).toBe(true);
    expect(inflate.contexts).toBe(1);
  });

  it('refuses to write past the buffer it is given, rather than reach zlib with it', () => {
    const inflate = sizedInflater(DICTIONARY_1);
    const text = texts[5]!;
    const target = Buffer.alloc(text.length + 10);
    // The text and its spare byte fit from 9 on, not from 10.
    expect(inflate.into(deflated(text), text.length, target, 9)).toBe(text.length);
    expect(target.subarray(9, 9 + text.length).equals(text)).toBe(true);
    expect(() => inflate.into(deflated(text), text.length, target, 10)).toThrow(RangeError);
    expect(() => inflate.into(deflated(text), text.length, target, -1)).toThrow(RangeError);
  });
});
