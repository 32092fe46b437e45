import { concatBytes as concatList } from '@noble/hashes/utils.js';

/**
 * The slice of BCS (Binary Canonical Serialization) that Move entry-function arguments and the NFT
 * resources use: ULEB128 lengths, little-endian integers, 32-byte addresses, strings and options.
 */

export class BcsError extends Error {
  override name = 'BcsError';
}

export interface BcsReader {
  readonly remaining: number;
  u8(): number;
  bool(): boolean;
  u64(): bigint;
  uleb128(): number;
  bytes(length: number): Uint8Array;
  /** `vector<u8>`: ULEB128 length then the bytes. */
  byteVector(): Uint8Array;
  string(): string;
  address(): Uint8Array;
  /** `Option<T>` is a vector of zero or one element. */
  option<T>(inner: (r: BcsReader) => T): T | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function bcsReader(input: Uint8Array): BcsReader {
  let offset = 0;
  const take = (length: number): Uint8Array => {
    if (offset + length > input.length) throw new BcsError('unexpected end of input');
    const out = input.subarray(offset, offset + length);
    offset += length;
    return out;
  };
  const reader: BcsReader = {
    get remaining() {
      return input.length - offset;
    },
    u8: () => take(1)[0]!,
    bool() {
      const b = reader.u8();
      if (b > 1) throw new BcsError(`invalid bool ${b}`);
      return b === 1;
    },
    u64() {
      const b = take(8);
      let v = 0n;
      for (let i = 7; i >= 0; i -= 1) v = (v << 8n) | BigInt(b[i]!);
      return v;
    },
    uleb128() {
      let value = 0;
      let shift = 0;
      for (;;) {
        const byte = reader.u8();
        value += (byte & 0x7f) * 2 ** shift;
        if ((byte & 0x80) === 0) break;
        shift += 7;
        if (shift > 28) throw new BcsError('ULEB128 length overflow');
      }
      return value;
    },
    bytes: take,
    byteVector: () => take(reader.uleb128()),
    string() {
      try {
        return utf8.decode(reader.byteVector());
      } catch (err) {
        if (err instanceof BcsError) throw err;
        throw new BcsError('invalid utf-8 string');
      }
    },
    address: () => take(32),
    option(inner) {
      const n = reader.uleb128();
      if (n === 0) return undefined;
      if (n !== 1) throw new BcsError(`invalid option length ${n}`);
      return inner(reader);
    },
  };
  return reader;
}

export function uleb128(value: number): Uint8Array {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Uint8Array.from(out);
}

/** @noble/hashes' `concatBytes`, over a list. */
export const concatBytes = (parts: Uint8Array[]): Uint8Array => concatList(...parts);

/** Writers for the same types; each returns the encoding of one value. */
export const bcs = {
  bool: (v: boolean) => Uint8Array.of(v ? 1 : 0),
  u64(v: bigint): Uint8Array {
    const out = new Uint8Array(8);
    let x = v;
    for (let i = 0; i < 8; i += 1) {
      out[i] = Number(x & 0xffn);
      x >>= 8n;
    }
    return out;
  },
  byteVector: (v: Uint8Array) => concatBytes([uleb128(v.length), v]),
  string: (v: string) => bcs.byteVector(new TextEncoder().encode(v)),
  address(v: Uint8Array): Uint8Array {
    if (v.length !== 32) throw new BcsError(`address must be 32 bytes, got ${v.length}`);
    return v;
  },
  option: <T>(v: T | undefined, inner: (x: T) => Uint8Array) =>
    v === undefined ? Uint8Array.of(0) : concatBytes([Uint8Array.of(1), inner(v)]),
  /** `bigdecimal::BigDecimal { scaled: biguint::BigUint { bytes } }`: the scaled value's little-endian bytes. */
  bigDecimal(scaled: bigint): Uint8Array {
    const bytes: number[] = [];
    for (let x = scaled; x > 0n; x >>= 8n) bytes.push(Number(x & 0xffn));
    return bcs.byteVector(Uint8Array.from(bytes));
  },
};

/** Reads a `BigDecimal` back into its scaled integer (value × 10^18). */
export function readBigDecimal(r: BcsReader): bigint {
  const bytes = r.byteVector();
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i -= 1) v = (v << 8n) | BigInt(bytes[i]!);
  return v;
}
