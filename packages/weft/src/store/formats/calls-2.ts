import type { IndexedInternalTx } from '../records.js';
import { decodeRecord2, encodeRecord2 } from './record-2.js';
import { malformed } from './stored-value-error.js';
import { MAX_VARINT, readVarint, varintLength, writeVarint } from './varint.js';

/**
 * Call frames format 2: an EVM tx's call frames as one value (a row of `evm_internal_tx_pack`), a record
 * of format 2 (`record-2.ts`) whose text is, per frame in order, the index and the parent index + 1 as
 * varints, the type, then `from`, `to` (its length + 1, 0 for none), input, output, value, gas and gas
 * used, each a varint length and the bytes. The value's first byte, 2, is then its format: the first
 * call frames format takes the number its values have begun with since they were first written, so
 * those need no rewrite; a later layout gets a byte of its own. Addresses are stored as they are, not
 * as account ids: a tx's frames repeat a few addresses, which the compression keeps once, and a read
 * needs no account join. A row per frame cost about 160 bytes of row, header and three index entries;
 * a tx's frames now take about 210 bytes together on the bench chain (3.4 frames a tx).
 *
 * This file does not change once a later format is written: migration 0004 packs the frames of a store
 * with it (`createCallPacker2`), so what it stores stays what it was written to store.
 */
export const CALLS_FORMAT_2 = 2;

/**
 * One call frame of an EVM tx as stored (its tx is the row's). An indexed frame with a field more than
 * format 2 stores no longer compiles here, as it should: that field needs a new format.
 */
export type CallFrame = Omit<IndexedInternalTx, 'txHash'>;

/** callTracer's frame types, stored as their position; any other as 0xff and its text. */
const TYPES = ['CALL', 'STATICCALL', 'DELEGATECALL', 'CREATE', 'CREATE2', 'CALLCODE', 'SELFDESTRUCT'];
const OTHER_TYPE = 0xff;

/** An EVM tx's call frames in format 2 (above). */
export function encodeCalls2(frames: readonly CallFrame[]): Buffer {
  const out = new ByteWriter();
  for (const f of frames) {
    out.varint(f.index);
    out.varint(f.parentIndex + 1);
    const type = TYPES.indexOf(f.type);
    out.byte(type === -1 ? OTHER_TYPE : type);
    if (type === -1) out.bytes(Buffer.from(f.type, 'utf8'));
    out.bytes(f.from);
    if (f.to === null) out.varint(0);
    else {
      out.varint(f.to.length + 1);
      out.raw(f.to);
    }
    for (const b of [f.input, f.output, f.value, f.gas, f.gasUsed]) out.bytes(b);
  }
  return encodeRecord2(out.done());
}

/** `view` a value of format 2 (its first byte 2): the frames, their byte fields views into one buffer. */
export function decodeCalls2(view: Buffer): CallFrame[] {
  const r = new ByteReader(decodeRecord2(view, 'call frames'));
  const frames: CallFrame[] = [];
  while (!r.end()) {
    const index = r.varint();
    const parentIndex = r.varint() - 1;
    const code = r.byte();
    const type = code === OTHER_TYPE ? r.bytes().toString('utf8') : TYPES[code];
    if (type === undefined) throw malformed('call frames', `with a frame of unknown type ${code}`);
    const from = r.bytes();
    const toLength = r.varint();
    const to = toLength === 0 ? null : r.take(toLength - 1);
    frames.push({
      index,
      parentIndex,
      type,
      from,
      to,
      input: r.bytes(),
      output: r.bytes(),
      value: r.bytes(),
      gas: r.bytes(),
      gasUsed: r.bytes(),
    });
  }
  return frames;
}

/**
 * Groups frames, given in sequence order, into the rows of `evm_internal_tx_pack`: a row per run of
 * consecutive frames of one tx. `take` hands over the rows built so far as bulk columns (the open run
 * too when `all`, else it stays to be continued by the next frames).
 */
export function createCallPacker2() {
  interface Run {
    first: number;
    tx: number;
    height: number;
    frames: CallFrame[];
  }
  let runs: Run[] = [];
  let open: Run | undefined;
  let next: number | undefined;
  return {
    add(sequence: number, tx: number, height: number, frame: CallFrame) {
      if (!open || open.tx !== tx || open.height !== height || sequence !== next) {
        if (open) runs.push(open);
        open = { first: sequence, tx, height, frames: [] };
      }
      open.frames.push(frame);
      next = sequence + 1;
    },
    take(all: boolean) {
      if (all && open) {
        runs.push(open);
        open = undefined;
      }
      const done = runs;
      runs = [];
      return {
        first_sequence: ['int8', done.map((r) => r.first)],
        frame_count: ['int4', done.map((r) => r.frames.length)],
        evm_tx_sequence: ['int8', done.map((r) => r.tx)],
        height: ['int8', done.map((r) => r.height)],
        frames: ['bytea', done.map((r) => encodeCalls2(r.frames))],
      } as const;
    },
  };
}

class ByteWriter {
  private buffer = Buffer.allocUnsafe(512);
  private at = 0;

  private room(n: number) {
    if (this.at + n <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + n));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  byte(b: number) {
    this.room(1);
    this.buffer[this.at++] = b;
  }

  varint(n: number) {
    if (!Number.isInteger(n) || n < 0 || n > MAX_VARINT)
      throw new Error(`call frame field ${n} is not a count`);
    this.room(varintLength(n));
    this.at = writeVarint(this.buffer, this.at, n);
  }

  raw(b: Uint8Array) {
    this.room(b.length);
    this.buffer.set(b, this.at);
    this.at += b.length;
  }

  bytes(b: Uint8Array) {
    this.varint(b.length);
    this.raw(b);
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.at);
  }
}

class ByteReader {
  private at = 0;

  constructor(private readonly buffer: Buffer) {}

  end() {
    return this.at >= this.buffer.length;
  }

  byte(): number {
    if (this.at >= this.buffer.length) throw malformed('call frames', 'end early');
    return this.buffer[this.at++]!;
  }

  varint(): number {
    const { value, next } = readVarint(this.buffer, this.at, 'call frames');
    this.at = next;
    return value;
  }

  take(n: number): Buffer {
    if (this.at + n > this.buffer.length) throw malformed('call frames', 'end early');
    const out = this.buffer.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  bytes(): Buffer {
    return this.take(this.varint());
  }
}
