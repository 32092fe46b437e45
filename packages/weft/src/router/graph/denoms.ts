import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** An ICS-20 denom trace: the hops (newest first, as in the path) and the base denom. */
export interface IbcTrace {
  hops: Array<{ port: string; channel: string }>;
  base: string;
}

const CHANNEL = /^channel-\d+$/;

/** `transfer/channel-1/transfer/channel-0/uinit` → two hops and `uinit` (a base may hold slashes: `l2/…`). */
export function parseIbcPath(path: string): IbcTrace {
  const parts = path.split('/');
  const hops: IbcTrace['hops'] = [];
  while (parts.length > 2 && parts[0] === 'transfer' && CHANNEL.test(parts[1]!)) {
    hops.push({ port: parts.shift()!, channel: parts.shift()! });
  }
  return { hops, base: parts.join('/') };
}

export function ibcPath(trace: IbcTrace): string {
  return [...trace.hops.map((h) => `${h.port}/${h.channel}`), trace.base].join('/');
}

/** `ibc/<SHA-256 of the path, upper hex>`: how ICS-20 names a denom and ICS-721 a class that came by `path`. */
export function ibcHashOf(path: string): string {
  return `ibc/${bytesToHex(sha256(new TextEncoder().encode(path))).toUpperCase()}`;
}

/** The denom a chain holds for a trace: the base itself, or its `ibc/<hash>`. */
export function ibcDenomOf(trace: IbcTrace): string {
  return trace.hops.length === 0 ? trace.base : ibcHashOf(ibcPath(trace));
}

/** The trace path among an asset's `ibc` steps that hashes to the voucher `denom`, if one does. */
export function voucherPathIn(
  traces: Array<{ kind: string; path?: string }>,
  denom: string,
): string | undefined {
  return traces.find(
    (t) => t.kind === 'ibc' && t.path !== undefined && ibcDenomOf(parseIbcPath(t.path)) === denom,
  )?.path;
}

/** OPinit's L2 denom of an L1 denom: `l2/` + hex(sha3_256(u64be(bridge_id) ‖ l1_denom)). */
export function l2DenomOf(bridgeId: string, l1Denom: string): string {
  const id = new Uint8Array(8);
  new DataView(id.buffer).setBigUint64(0, BigInt(bridgeId));
  const denom = new TextEncoder().encode(l1Denom);
  const input = new Uint8Array(8 + denom.length);
  input.set(id);
  input.set(denom, 8);
  return `l2/${bytesToHex(sha3_256(input))}`;
}
