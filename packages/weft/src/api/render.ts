import { toBech32 } from '../chain/address.js';

/** How the API writes stored values, as rollytics does. */

const hexOf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * `0x` + lowercase hex; empty for a missing value (rollytics' `""` for id 0). Buffer's encoder, not
 * `toHexAddress`: internal-tx inputs run to kilobytes and this is on every answer.
 */
export const hex0x = (bytes: Uint8Array | null | undefined): string => (bytes ? `0x${hexOf(bytes)}` : '');

export const upperHex = (bytes: Uint8Array): string => hexOf(bytes).toUpperCase();

export const bech32 = (prefix: string, bytes: Uint8Array | null | undefined): string =>
  bytes ? toBech32(prefix, bytes) : '';

/** Block times are RFC 3339 to the second: `2025-08-06T08:45:21Z`. */
export const secondsTimestamp = (iso: string): string => `${iso.slice(0, 19)}Z`;
