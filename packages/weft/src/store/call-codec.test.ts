import { describe, expect, it } from 'vitest';
import { type CallFrame, createCallPacker, decodeCalls, encodeCalls } from './call-codec.js';
import { decodeRecord2, encodeRecord2 } from './formats/record-2.js';

const bytes = (...b: number[]) => new Uint8Array(b);
const frame = (index: number, over: Partial<CallFrame> = {}): CallFrame => ({
  index,
  parentIndex: index - 1,
  type: 'CALL',
  from: new Uint8Array(20).fill(1),
  to: new Uint8Array(20).fill(2),
  input: bytes(0xa9, 0x05, 0x9c, 0xbb, ...new Uint8Array(64)),
  output: bytes(),
  value: bytes(0),
  gas: bytes(0x52, 0x08),
  gasUsed: bytes(0x52, 0x08),
  ...over,
});
/** Byte fields as hex (a decoded frame's are Buffers, a written one's Uint8Arrays). */
const plain = (frames: CallFrame[]) =>
  frames.map((f) =>
    Object.fromEntries(
      Object.entries(f).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v]),
    ),
  );

describe('call frames codec', () => {
  it('gives back every field of every frame: no parent, no `to`, empty and long values, other types', () => {
    const frames = [
      frame(0, { parentIndex: -1, type: 'CREATE', to: null }),
      frame(1, { type: 'DELEGATECALL', input: new Uint8Array(70_000).fill(7) }),
      frame(2, { type: 'SOMETHING_NEW', from: bytes(9), output: bytes(1, 2, 3), parentIndex: 1 }),
      frame(300, { type: 'STATICCALL', to: new Uint8Array(0) }),
    ];
    const stored = encodeCalls(frames);
    expect(plain(decodeCalls(stored))).toEqual(plain(frames));
    // Compressed: the 70 kB input of one repeated byte takes little room.
    expect(stored.length).toBeLessThan(1000);
  });

  it('names its format in its first byte, 2, and refuses a format it does not know', () => {
    const stored = encodeCalls([frame(0)]);
    expect(stored[0]).toBe(2);
    const later = Buffer.from(stored);
    later[0] = 3;
    expect(() => decodeCalls(later)).toThrow(
      expect.objectContaining({
        code: 'WEFT_ERR_STORE_FORMAT_UNKNOWN',
        message: 'stored call frames of unknown format 3',
      }),
    );
    expect(() => decodeCalls(new Uint8Array())).toThrow(/unknown format undefined/);
  });

  it('refuses stored frames that end early, hold an unknown type or do not inflate', () => {
    const raw = decodeRecord2(encodeCalls([frame(0)]));
    // The frame's bytes without their last one.
    expect(() => decodeCalls(encodeRecord2(raw.subarray(0, raw.length - 1)))).toThrow(
      expect.objectContaining({
        code: 'WEFT_ERR_STORE_VALUE_MALFORMED',
        message: 'stored call frames end early',
      }),
    );
    const badType = Buffer.from(raw);
    badType[2] = 0x40;
    expect(() => decodeCalls(encodeRecord2(badType))).toThrow(/unknown type 64/);
    expect(() => decodeCalls(Buffer.from([2, 5, 0xff, 0xff]))).toThrow(
      expect.objectContaining({
        code: 'WEFT_ERR_STORE_VALUE_MALFORMED',
        message: 'stored call frames do not inflate',
      }),
    );
  });

  it('packs a tx’s consecutive frames into one row, a new row per tx, height or gap', () => {
    const packer = createCallPacker();
    packer.add(1, 10, 5, frame(0));
    packer.add(2, 10, 5, frame(1));
    packer.add(3, 11, 5, frame(0));
    expect(packer.take(false).first_sequence[1]).toEqual([1]);
    packer.add(4, 11, 5, frame(1));
    packer.add(6, 11, 5, frame(2));
    packer.add(7, 12, 6, frame(0));
    const rows = packer.take(true);
    expect(rows.first_sequence[1]).toEqual([3, 6, 7]);
    expect(rows.frame_count[1]).toEqual([2, 1, 1]);
    expect(rows.evm_tx_sequence[1]).toEqual([11, 11, 12]);
    expect(rows.height[1]).toEqual([5, 5, 6]);
    expect(decodeCalls(rows.frames[1][0]!).map((f) => f.index)).toEqual([0, 1]);
    expect(packer.take(true).first_sequence[1]).toEqual([]);
  });
});
