import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, fromBech32, hexToBytes, toBech32 } from '../../chain/address.js';
import { concatBytes } from './bcs.js';

/** Move addresses are 32 bytes; SDK account addresses (20 bytes) are left-padded with zeros. */
export const MOVE_ADDRESS_LENGTH = 32;

/** `0x1`, the stdlib address (`@minitia_std`). */
export const STD_ADDRESS = (() => {
  const a = new Uint8Array(MOVE_ADDRESS_LENGTH);
  a[31] = 1;
  return a;
})();

// `object::OBJECT_FROM_SEED_ADDRESS_SCHEME`.
const OBJECT_FROM_SEED_ADDRESS_SCHEME = 0xfe;

export function padMoveAddress(bytes: Uint8Array): Uint8Array {
  if (bytes.length > MOVE_ADDRESS_LENGTH) throw new Error(`address longer than 32 bytes: ${bytes.length}`);
  const out = new Uint8Array(MOVE_ADDRESS_LENGTH);
  out.set(bytes, MOVE_ADDRESS_LENGTH - bytes.length);
  return out;
}

/**
 * initia's `AccAddressFromString`: `0x`-hex (short forms allowed) or bech32 with the chain prefix,
 * padded to 32 bytes.
 */
export function parseMoveAddress(input: string, prefix: string): Uint8Array {
  if (input.startsWith('0x')) {
    let hex = input.slice(2);
    if (hex.length % 2 === 1) hex = `0${hex}`;
    if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length > 64) throw new Error(`invalid hex address ${input}`);
    return padMoveAddress(hexToBytes(hex));
  }
  const { prefix: p, bytes } = fromBech32(input);
  if (p !== prefix) throw new Error(`invalid address ${input}: expected prefix ${prefix}, got ${p}`);
  return padMoveAddress(bytes);
}

/** Move's `AccountAddress::to_hex_literal`: `0x` + hex with leading zeros trimmed (`0x0` for zero). */
export function toHexLiteral(address: Uint8Array): string {
  const trimmed = bytesToHex(address).replace(/^0+/, '');
  return `0x${trimmed === '' ? '0' : trimmed}`;
}

/** movevm's Go `AccountAddress.String()` (used in the `execute` event): like `toHexLiteral`, but zero is `0x`. */
export function vmAddressString(address: Uint8Array): string {
  return `0x${bytesToHex(address).replace(/^0+/, '')}`;
}

/** 64 lowercase hex characters, the form used in state keys and abort locations. */
export function canonicalHex(address: Uint8Array): string {
  return bytesToHex(address);
}

/** initia's `ConvertVMAddressToSDKAddress`: drops the 12 zero bytes of padding when they are there. */
export function moveToAccAddress(address: Uint8Array, prefix: string): string {
  const padded = address.subarray(0, 12).every((b) => b === 0);
  return toBech32(prefix, padded ? address.subarray(12) : address);
}

/** `object::create_object_address`: sha3-256(source ‖ seed ‖ 0xFE). */
export function createObjectAddress(source: Uint8Array, seed: Uint8Array): Uint8Array {
  return sha3_256(concatBytes([source, seed, Uint8Array.of(OBJECT_FROM_SEED_ADDRESS_SCHEME)]));
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** `collection::create_collection_address`: the named object seeded by the collection name. */
export function collectionAddress(creator: Uint8Array, name: string): Uint8Array {
  return createObjectAddress(creator, utf8(name));
}

/** `nft::create_nft_address`: seeded by `<collection name>::<token id>` under the collection creator. */
export function nftAddress(creator: Uint8Array, collectionName: string, tokenId: string): Uint8Array {
  return createObjectAddress(creator, utf8(`${collectionName}::${tokenId}`));
}

const MOVE_DENOM_PREFIX = 'move/';

/**
 * initia's `MetadataAddressFromDenom`: a `move/<hex>` denom names its fungible asset's metadata object; any
 * other coin is issued by `0x1`, its metadata the object named by the denom under `0x1`.
 */
export function metadataAddress(denom: string): Uint8Array {
  if (denom.startsWith(MOVE_DENOM_PREFIX))
    return padMoveAddress(hexToBytes(denom.slice(MOVE_DENOM_PREFIX.length)));
  return createObjectAddress(STD_ADDRESS, utf8(denom));
}

/**
 * initia's `DenomFromMetadataAddress` over the denoms a chain has: the symbol of a `0x1` coin is its denom,
 * any other fungible asset is `move/<hex>`; undefined when no coin has this metadata.
 */
export function denomOfMetadata(metadata: Uint8Array, denoms: Iterable<string>): string | undefined {
  const target = canonicalHex(metadata);
  for (const denom of denoms) {
    if (canonicalHex(metadataAddress(denom)) !== target) continue;
    return denom.startsWith(MOVE_DENOM_PREFIX) ? `${MOVE_DENOM_PREFIX}${target}` : denom;
  }
  return undefined;
}
