import { sha3_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from './bcs.js';

/**
 * Move object addresses as initia's stdlib derives them (`object.move`, `collection.move`, `nft.move`):
 * the chain, the router and the indexer name a collection or token object the same way from these.
 */

/** Move addresses are 32 bytes; SDK account addresses (20 bytes) are left-padded with zeros. */
export const MOVE_ADDRESS_LENGTH = 32;

/** `0x1`, the stdlib address (`@initia_std`, `@minitia_std`). */
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
