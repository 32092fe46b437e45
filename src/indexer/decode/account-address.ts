import { fromBech32 } from '../../chain/address.js';
import { boundedMemo } from './memo.js';

/** An account as the store keys it: raw bytes, with their lowercase hex to compare and de-duplicate by. */
export interface AccountRef {
  bytes: Uint8Array;
  hex: string;
}

const HEX = /^[0-9a-f]*$/;

function fromHex(hex: string): AccountRef {
  return { bytes: Uint8Array.from(Buffer.from(hex, 'hex')), hex };
}

function parse(input: string, prefix: string): AccountRef | null {
  if (!input.startsWith('0x')) {
    try {
      const decoded = fromBech32(input);
      if (decoded.prefix === prefix && decoded.bytes.length > 0 && decoded.bytes.length <= 255) {
        return { bytes: decoded.bytes, hex: Buffer.from(decoded.bytes).toString('hex') };
      }
    } catch {
      // not bech32: read it as hex below, as the SDK helper does
    }
  }
  const trimmed = (input.startsWith('0x') ? input.slice(2) : input).toLowerCase().replace(/^0+/, '');
  if (!HEX.test(trimmed) || trimmed.length > 64) return null;
  return fromHex(trimmed.padStart(trimmed.length <= 40 ? 40 : 64, '0'));
}

const memos = new Map<string, (input: string) => AccountRef | null>();

/**
 * rollytics' `AccAddressFromString`: bech32 with the chain's prefix, or hex (optional `0x`) with its
 * leading zeros trimmed, then left-padded to 20 bytes (32 when longer). Null when neither reads.
 * The bytes are shared between callers and must not be mutated.
 */
export function accAddressFromString(input: string, prefix: string): AccountRef | null {
  let memo = memos.get(prefix);
  if (!memo) {
    memo = boundedMemo(50_000, (s) => parse(s, prefix));
    memos.set(prefix, memo);
  }
  return memo(input);
}

/** A Move object address (`0x` short hex literal) as its 32 bytes. */
export function moveObjectAddress(input: string): AccountRef | null {
  const hex = (input.startsWith('0x') ? input.slice(2) : input).toLowerCase();
  if (hex.length === 0 || hex.length > 64 || !HEX.test(hex)) return null;
  return fromHex(hex.padStart(64, '0'));
}

/** rollytics' `HexToBytes`: optional `0x`, an odd length gets a leading zero, empty gives no bytes. */
export function hexToBytesPadded(input: string): Uint8Array {
  let hex = input.startsWith('0x') || input.startsWith('0X') ? input.slice(2) : input;
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new Error(`invalid hex ${JSON.stringify(input)}`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}
