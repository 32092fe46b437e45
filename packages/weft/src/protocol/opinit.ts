import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '@noble/hashes/utils.js';

/** The hashes OPinit defines (`x/ophost/types`): L2 denoms, bridge accounts, withdrawals and output roots. */

const encoder = new TextEncoder();

const u64be = (value: bigint): Uint8Array => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value);
  return bytes;
};

export const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** `L2Denom`: `l2/` + hex(sha3_256(bigEndianUint64(bridge_id) ‖ l1_denom)); a bridge id as a number or its text. */
export function l2Denom(bridgeId: bigint | string, l1Denom: string): string {
  return `l2/${toHex(sha3_256(concatBytes(u64be(BigInt(bridgeId)), encoder.encode(l1Denom))))}`;
}

/** SDK `address.Module("ophost", u64be(bridge_id))`: the bridge's escrow account (32 bytes). */
export function bridgeAddressBytes(bridgeId: bigint): Uint8Array {
  // address.Hash(typ, key) = sha256(sha256(typ) ‖ key); Module derives Hash("module", name), then key.
  const hash = (typ: Uint8Array, key: Uint8Array) => sha256(concatBytes(sha256(typ), key));
  return hash(hash(encoder.encode('module'), encoder.encode('ophost')), u64be(bridgeId));
}

/** sha3_256(sha3_256(bridge_id ‖ sequence ‖ sha3(from) ‖ sha3(to) ‖ sha3(denom) ‖ amount)), all u64 big-endian. */
export function withdrawalHash(input: {
  bridgeId: bigint;
  sequence: bigint;
  from: string;
  to: string;
  denom: string;
  amount: bigint;
}): Uint8Array {
  const seed = concatBytes(
    u64be(input.bridgeId),
    u64be(input.sequence),
    sha3_256(encoder.encode(input.from)),
    sha3_256(encoder.encode(input.to)),
    sha3_256(encoder.encode(input.denom)),
    u64be(input.amount),
  );
  return sha3_256(sha3_256(seed));
}

/** sha3_256(version ‖ storage_root ‖ last_block_hash). */
export function outputRoot(version: number, storageRoot: Uint8Array, lastBlockHash: Uint8Array): Uint8Array {
  return sha3_256(
    concatBytes(Uint8Array.of(version), storageRoot.subarray(0, 32), lastBlockHash.subarray(0, 32)),
  );
}

const compare = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A node of two children, commutative: the smaller one goes first. */
export function nodeHash(a: Uint8Array, b: Uint8Array): Uint8Array {
  return compare(a, b) < 0 ? sha3_256(concatBytes(a, b)) : sha3_256(concatBytes(b, a));
}

export function rootFromProofs(leaf: Uint8Array, proofs: Uint8Array[]): Uint8Array {
  return proofs.reduce((node, proof) => nodeHash(node, proof), leaf);
}
