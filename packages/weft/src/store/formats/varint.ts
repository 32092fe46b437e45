import { malformed, type StoredKind } from './stored-value-error.js';

/**
 * LEB128 varints of non-negative integers below 2^35 (at most 5 bytes), as the stored formats use
 * them: a record's text length (record format 2), the fields of call frames (call frames format 2).
 * Part of those formats: the bytes this writes never change.
 */
export const MAX_VARINT = 2 ** 35 - 1;

export const varintLength = (n: number) =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;

/** Writes `n` at `at` (room for `varintLength(n)` bytes is the caller's); returns the next offset. */
export function writeVarint(out: Buffer, at: number, n: number): number {
  let rest = n;
  let i = at;
  while (rest >= 0x80) {
    out[i++] = (rest & 0x7f) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  out[i] = rest;
  return i + 1;
}

/** The varint at `at`; `kind` names the value in the error a malformed one gets. */
export function readVarint(bytes: Uint8Array, at: number, kind: StoredKind): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 5; i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: i + 1 };
    scale *= 0x80;
  }
  throw malformed(kind, 'with a malformed length');
}
