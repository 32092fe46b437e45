import { accAddressBytes, moveObjectBytes } from '../../chain/account-address.js';
import { boundedMemo } from './memo.js';

/** An account as the store keys it: raw bytes, with their lowercase hex to compare and de-duplicate by. */
export interface AccountRef {
  bytes: Uint8Array;
  hex: string;
}

function refOf(bytes: Uint8Array | undefined): AccountRef | null {
  return bytes ? { bytes, hex: Buffer.from(bytes).toString('hex') } : null;
}

const memos = new Map<string, (input: string) => AccountRef | null>();

/**
 * rollytics' `AccAddressFromString` (see `accAddressBytes`), memoised per prefix since the same
 * accounts recur across blocks. Null when the string names no account. The bytes are shared between
 * callers and must not be mutated.
 */
export function accAddressFromString(input: string, prefix: string): AccountRef | null {
  let memo = memos.get(prefix);
  if (!memo) {
    memo = boundedMemo(50_000, (s) => refOf(accAddressBytes(s, prefix)));
    memos.set(prefix, memo);
  }
  return memo(input);
}

/** A Move object address (`0x` short hex literal) as its 32 bytes. */
export function moveObjectAddress(input: string): AccountRef | null {
  return refOf(moveObjectBytes(input));
}

/** rollytics' `HexToBytes`: optional `0x`, an odd length gets a leading zero, empty gives no bytes. */
export function hexToBytesPadded(input: string): Uint8Array {
  let hex = input.startsWith('0x') || input.startsWith('0X') ? input.slice(2) : input;
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (hex.length <= SHORT_HEX) return shortHexBytes(hex, input);
  // Buffer's decoder stops at the first pair that is not hex: a short result is the check (call
  // inputs run to kilobytes, where a regex test cost more than the decoding).
  const bytes = Buffer.from(hex, 'hex');
  if (bytes.length * 2 !== hex.length) throw new Error(`invalid hex ${JSON.stringify(input)}`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

// Hashes, addresses and the small numbers of traces: decoded here, which costs less than a Buffer per value.
const SHORT_HEX = 64;
const NIBBLES = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i += 1) {
  NIBBLES['0123456789abcdef'.charCodeAt(i)] = i;
  NIBBLES['0123456789ABCDEF'.charCodeAt(i)] = i;
}
const nibble = (code: number) => (code < 128 ? NIBBLES[code]! : -1);

/** An even number of hex digits (either case) as bytes; `input` names the value in the error. */
function shortHexBytes(hex: string, input: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) {
    const high = nibble(hex.charCodeAt(2 * i));
    const low = nibble(hex.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) throw new Error(`invalid hex ${JSON.stringify(input)}`);
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}
