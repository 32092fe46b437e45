import { describe, expect, it } from 'vitest';
import { type CallFrame, createCallPacker, decodeCalls, encodeCalls } from './call-codec.js';
import { decodeRecordBytes, encodeRecordBytes } from './record-codec.js';

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

  it('refuses stored frames that end early or hold an unknown type', () => {
    const good = encodeCalls([frame(0)]);
    const truncated = encodeCalls([frame(0)]);
    // The frame's bytes without their last one.
    const raw = decodeRecordBytes(truncated);
    expect(() => decodeCalls(encodeRecordBytes(raw.subarray(0, raw.length - 1)))).toThrow(/end early/);
    const badType = Buffer.from(decodeRecordBytes(good));
    badType[2] = 0x40;
    expect(() => decodeCalls(encodeRecordBytes(badType))).toThrow(/unknown type 64/);
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
