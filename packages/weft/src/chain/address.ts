import { fromBech32 as decodeBech32, toBech32 as encodeBech32, fromHex, toHex } from '@cosmjs/encoding';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { getAddress } from 'viem';

export const SECP256K1_PUBKEY_TYPE = '/cosmos.crypto.secp256k1.PubKey';
export const ETHSECP256K1_PUBKEY_TYPE = '/initia.crypto.v1beta1.ethsecp256k1.PubKey';

/**
 * The account address of a public key, as the key type's `Address()` computes it: cosmos secp256k1 keys
 * hash the compressed key (ripemd160 ∘ sha256), Ethereum-style keys take keccak256 of the uncompressed point.
 */
export function pubKeyToAddress(typeUrl: string, key: Uint8Array): Uint8Array {
  switch (typeUrl) {
    case SECP256K1_PUBKEY_TYPE:
      if (key.length !== 33)
        throw new Error(`invalid secp256k1 public key length ${key.length}, expected 33`);
      return ripemd160(sha256(key));
    case ETHSECP256K1_PUBKEY_TYPE: {
      const uncompressed = secp256k1.Point.fromBytes(key).toBytes(false);
      return keccak_256(uncompressed.subarray(1)).slice(12);
    }
    default:
      throw new Error(`unsupported public key type ${typeUrl}`);
  }
}

// @cosmjs/encoding's default limit (Infinity) is rejected by the @scure/base it runs on; the SDK allows
// addresses of up to 255 bytes, far past BIP-173's 90 characters.
const BECH32_MAX_LENGTH = 1023;

export function toBech32(prefix: string, bytes: Uint8Array): string {
  return encodeBech32(prefix, bytes, BECH32_MAX_LENGTH);
}

export function fromBech32(address: string): { prefix: string; bytes: Uint8Array } {
  const { prefix, data } = decodeBech32(address, BECH32_MAX_LENGTH);
  return { prefix, bytes: data };
}

/** Accepts hex with or without `0x`, either case. */
export function hexToBytes(hex: string): Uint8Array {
  return fromHex(hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex);
}

/** Lowercase hex without `0x`. */
export function bytesToHex(bytes: Uint8Array): string {
  return toHex(bytes);
}

/** `0x` + lowercase hex. */
export function toHexAddress(bytes: Uint8Array): string {
  return `0x${toHex(bytes)}`;
}

/** EIP-55 mixed-case form of a 20-byte hex address. */
export function toChecksumAddress(address: string): string {
  return getAddress(address.startsWith('0x') ? address : `0x${address}`);
}

const HEX_ADDRESS = /^(0x)?([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/** The bytes of an address given as bech32 with `prefix`, or as 20- or 32-byte hex (with or without 0x). */
export function addressBytes(input: string, prefix: string): Uint8Array {
  if (HEX_ADDRESS.test(input)) return hexToBytes(input);
  let decoded: { prefix: string; bytes: Uint8Array };
  try {
    decoded = fromBech32(input);
  } catch (err) {
    throw new Error(`invalid address ${JSON.stringify(input)}: ${(err as Error).message}`);
  }
  if (decoded.prefix !== prefix) {
    throw new Error(`invalid address ${input}: expected prefix ${prefix}, got ${decoded.prefix}`);
  }
  return decoded.bytes;
}
