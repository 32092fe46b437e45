import { fromBech32 } from './address.js';

/**
 * How a string names an account, as rollytics reads it. The indexer keys stored accounts with these
 * rules and the API reads request parameters with them, so a value the API is given finds what the
 * indexer stored from the same text.
 */

/** The SDK's `VerifyAddressFormat` bound: an address holds 1 to 255 bytes. */
const MAX_ADDRESS_BYTES = 255;

const LOWER_HEX = /^[0-9a-f]*$/;

/**
 * The SDK's `AccAddressFromBech32` for the chain's `prefix`: bech32 whose prefix matches and whose
 * data is 1 to 255 bytes. Undefined otherwise.
 */
export function bech32AccountBytes(input: string, prefix: string): Uint8Array | undefined {
  try {
    const decoded = fromBech32(input);
    const ok = decoded.prefix === prefix && decoded.bytes.length > 0;
    return ok && decoded.bytes.length <= MAX_ADDRESS_BYTES ? decoded.bytes : undefined;
  } catch {
    return undefined;
  }
}

/**
 * rollytics' `AccAddressFromString`: without a `0x`, bech32 with the chain's prefix if it reads as
 * that; otherwise hex (only a lowercase `0x` is a prefix), leading zeros trimmed, then left-padded to
 * 20 bytes, or to 32 when more than 40 digits remain. Undefined when neither reads.
 *
 * Like rollytics, the empty string and a bare `0x` read as the zero address: decoders meet them in
 * events, while a caller taking user input may want to refuse them first.
 */
export function accAddressBytes(input: string, prefix: string): Uint8Array | undefined {
  if (!input.startsWith('0x')) {
    const bytes = bech32AccountBytes(input, prefix);
    if (bytes) return bytes;
  }
  const digits = (input.startsWith('0x') ? input.slice(2) : input).toLowerCase().replace(/^0+/, '');
  if (digits.length > 64 || !LOWER_HEX.test(digits)) return undefined;
  return hexBytes(digits.padStart(digits.length <= 40 ? 40 : 64, '0'));
}

/**
 * A Move object address written as a hex literal (optional lowercase `0x`, 1 to 64 digits, as
 * `0xab1`): its 32 bytes, left-padded with zeros. Undefined otherwise.
 */
export function moveObjectBytes(input: string): Uint8Array | undefined {
  const digits = (input.startsWith('0x') ? input.slice(2) : input).toLowerCase();
  if (digits.length === 0 || digits.length > 64 || !LOWER_HEX.test(digits)) return undefined;
  return hexBytes(digits.padStart(64, '0'));
}

/** Bytes of an even number of lowercase hex digits, already checked. */
function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}
