import { accAddressBytes, bech32AccountBytes, moveObjectBytes } from '../chain/account-address.js';
import { InvalidArgumentError } from '../common/errors.js';
import { echo } from '../common/http.js';

/**
 * Path and query values that need more than a schema to read: addresses, hashes, heights and msg
 * type lists. Each failure is a 400 naming the parameter.
 */

const HEX = /^[0-9a-fA-F]+$/;

const invalid = (name: string, raw: string, reason: string) =>
  new InvalidArgumentError(`invalid value for ${name}: ${echo(raw)} (${reason})`);

/**
 * An address parameter as the shared address rules read it, or undefined when it names none. The
 * rules read an empty value or a bare `0x` as the zero address; a request must spell one out (`0x0`).
 * The API has always taken an upper-case `0X` as well, which the rules alone would not read.
 */
function addressText(raw: string): string | undefined {
  const text = raw.startsWith('0X') ? `0x${raw.slice(2)}` : raw;
  return text === '' || text === '0x' ? undefined : text;
}

/**
 * An account as the indexer keys it (rollytics' `AccAddressFromString`): bech32 with the chain's
 * prefix, or hex with or without `0x`, leading zeros dropped and padded to 20 bytes (32 if longer).
 */
export function parseAccount(raw: string, prefix: string, name = 'account'): Uint8Array {
  const text = addressText(raw);
  const bytes = text === undefined ? undefined : accAddressBytes(text, prefix);
  if (!bytes) {
    throw invalid(
      name,
      raw,
      `expected a bech32 address with prefix ${prefix}1 or a 20- or 32-byte hex address`,
    );
  }
  return bytes;
}

/**
 * A collection (contract or object) address. Move collections are 32-byte objects, so hex there is
 * padded to 32 bytes; elsewhere hex is read as an account.
 */
export function parseCollectionAddress(
  raw: string,
  vm: string,
  prefix: string,
  name = 'collection_addr',
): Uint8Array {
  if (vm !== 'move') return parseAccount(raw, prefix, name);
  const text = addressText(raw);
  const bytes =
    text === undefined
      ? undefined
      : ((text.startsWith('0x') ? undefined : bech32AccountBytes(text, prefix)) ?? moveObjectBytes(text));
  if (!bytes) throw invalid(name, raw, 'expected a hex object address (up to 32 bytes) or bech32');
  return bytes;
}

/** A 32-byte tx hash in any case, with or without `0x`. */
export function parseTxHash(raw: string, name = 'tx_hash'): Uint8Array {
  const digits = raw.startsWith('0x') || raw.startsWith('0X') ? raw.slice(2) : raw;
  if (digits.length !== 64 || !HEX.test(digits)) {
    throw invalid(name, raw, 'expected 64 hex digits, with or without 0x');
  }
  return Buffer.from(digits, 'hex');
}

/** A height given as text: digits only, at least 1, within JavaScript's exact integers. */
export function parseHeight(raw: string | number, name = 'height'): number {
  const text = String(raw);
  const value = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(name, text, 'must be a positive integer');
  return value;
}

/**
 * `msgs` values: repeated parameters and comma-separated lists, with or without the leading `/`.
 * Undefined when nothing was asked for (no filter); an unknown type simply matches nothing.
 */
export function parseMsgTypes(values: string | string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const names = (Array.isArray(values) ? values : [values])
    .flatMap((value) => value.split(','))
    .map((name) => name.trim().replace(/^\/+/, ''))
    .filter((name) => name !== '');
  return names.length === 0 ? undefined : [...new Set(names)];
}
