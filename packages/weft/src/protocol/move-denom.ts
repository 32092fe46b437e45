import { bytesToHex, hexToBytes } from '../chain/address.js';
import { createObjectAddress, padMoveAddress, STD_ADDRESS } from '../chain/move-object.js';

/** Move's `move/…` denoms (initia `x/move/types/denom.go`): a fungible asset named by its metadata object. */

export const MOVE_DENOM_PREFIX = 'move/';

/** `move/` and the 64 lowercase hex digits of an object: a fungible asset's denom, an NFT collection's class id. */
export const moveDenom = (object: Uint8Array): string => `${MOVE_DENOM_PREFIX}${bytesToHex(object)}`;

/**
 * initia's `MetadataAddressFromDenom`: a `move/<hex>` denom names its fungible asset's metadata object; any
 * other coin is issued by `0x1`, its metadata the object named by the denom under `0x1`.
 */
export function metadataAddress(denom: string): Uint8Array {
  if (denom.startsWith(MOVE_DENOM_PREFIX))
    return padMoveAddress(hexToBytes(denom.slice(MOVE_DENOM_PREFIX.length)));
  return createObjectAddress(STD_ADDRESS, new TextEncoder().encode(denom));
}

/**
 * initia's `DenomFromMetadataAddress` over the denoms a chain has: the symbol of a `0x1` coin is its denom,
 * any other fungible asset is `move/<hex>`; undefined when no coin has this metadata.
 */
export function denomOfMetadata(metadata: Uint8Array, denoms: Iterable<string>): string | undefined {
  const target = bytesToHex(metadata);
  for (const denom of denoms) {
    if (bytesToHex(metadataAddress(denom)) !== target) continue;
    return denom.startsWith(MOVE_DENOM_PREFIX) ? `${MOVE_DENOM_PREFIX}${target}` : denom;
  }
  return undefined;
}
