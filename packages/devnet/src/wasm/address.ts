import { sha256 } from '@noble/hashes/sha2.js';
import { toBech32 } from 'weft/chain/address.js';

/**
 * wasmd's `BuildContractAddressClassic(codeID, instanceID)`: the SDK's `address.Module("wasm", key)`, i.e.
 * sha256(sha256("module") ‖ "wasm\0" ‖ codeID ‖ instanceID) with both ids big-endian u64, all 32 bytes kept.
 */
export function contractAddressClassic(codeId: bigint, instanceId: bigint): Uint8Array {
  const typeHash = sha256(new TextEncoder().encode('module'));
  const key = new Uint8Array(5 + 16);
  key.set(new TextEncoder().encode('wasm\0'));
  const view = new DataView(key.buffer);
  view.setBigUint64(5, codeId);
  view.setBigUint64(13, instanceId);
  const preimage = new Uint8Array(typeHash.length + key.length);
  preimage.set(typeHash);
  preimage.set(key, typeHash.length);
  return sha256(preimage);
}

export function contractAddress(prefix: string, codeId: bigint, instanceId: bigint): string {
  return toBech32(prefix, contractAddressClassic(codeId, instanceId));
}
