import { hexToBytes } from 'weft/chain/address.js';
import { bcs, concatBytes } from 'weft/chain/bcs.js';
import type { StateReader } from '../state/store.js';
import { toHexLiteral, vmAddressString } from './address.js';
import { formatDecimal } from './bigdecimal.js';
import type { MoveJson } from './events.js';
import { moveState } from './state.js';

/**
 * The resources of the NFT modules as `/initia/move/v1/accounts/{addr}/resources/by_struct_tag` returns them:
 * `move_resource` is movevm's JSON `{type, data}` (fields sorted, as its BTreeMap orders them; `Object<T>` as
 * `{inner}`, `Table` as `{handle, length}`), `raw_bytes` the BCS bytes, base64.
 */

export interface MoveResourceView {
  address: string;
  struct_tag: string;
  move_resource: string;
  raw_bytes: string;
}

interface Rendered {
  data: Record<string, MoveJson>;
  bytes: Uint8Array;
}

const addr = (hex: string) => hexToBytes(hex);
const lit = (hex: string) => toHexLiteral(addr(hex));
const u64 = (v: string) => bcs.u64(BigInt(v));

type Renderer = (state: StateReader, address: Uint8Array) => Rendered | undefined;

const renderers: Record<string, Renderer> = {
  '0x1::object::ObjectCore'(state, address) {
    const o = moveState.object(state, address);
    if (!o) return undefined;
    return {
      data: { allow_ungated_transfer: o.allowUngatedTransfer, owner: lit(o.owner), version: o.version },
      bytes: concatBytes([addr(o.owner), bcs.bool(o.allowUngatedTransfer), u64(o.version)]),
    };
  },
  '0x1::object::Tombstone'(state, address) {
    const version = moveState.tombstone(state, address);
    return version === undefined ? undefined : { data: { version }, bytes: u64(version) };
  },
  '0x1::collection::Collection'(state, address) {
    const c = moveState.collection(state, address);
    if (!c) return undefined;
    return {
      data: {
        creator: lit(c.creator),
        description: c.description,
        name: c.name,
        nfts: { handle: lit(c.tableHandle), length: c.length },
        uri: c.uri,
      },
      bytes: concatBytes([
        addr(c.creator),
        bcs.string(c.description),
        bcs.string(c.name),
        bcs.string(c.uri),
        addr(c.tableHandle),
        u64(c.length),
      ]),
    };
  },
  '0x1::collection::UnlimitedSupply'(state, address) {
    const s = moveState.collection(state, address)?.supply;
    if (s?.kind !== 'unlimited') return undefined;
    return {
      data: { current_supply: s.currentSupply, total_minted: s.totalMinted },
      bytes: concatBytes([u64(s.currentSupply), u64(s.totalMinted)]),
    };
  },
  '0x1::collection::FixedSupply'(state, address) {
    const s = moveState.collection(state, address)?.supply;
    if (s?.kind !== 'fixed') return undefined;
    return {
      data: { current_supply: s.currentSupply, max_supply: s.maxSupply!, total_minted: s.totalMinted },
      bytes: concatBytes([u64(s.currentSupply), u64(s.maxSupply!), u64(s.totalMinted)]),
    };
  },
  '0x1::royalty::Royalty'(state, address) {
    const r = moveState.collection(state, address)?.royalty;
    if (!r) return undefined;
    return {
      data: { payee_address: lit(r.payee), royalty: formatDecimal(BigInt(r.scaled)) },
      bytes: concatBytes([bcs.bigDecimal(BigInt(r.scaled)), addr(r.payee)]),
    };
  },
  '0x1::initia_nft::InitiaNftCollection'(state, address) {
    const c = moveState.collection(state, address);
    const o = moveState.object(state, address);
    if (!c || !o) return undefined;
    const m = c.initiaNft;
    const self = toHexLiteral(address);
    const hasMutator = m.mutableDescription || m.mutableUri;
    return {
      data: {
        mutable_description: m.mutableDescription,
        mutable_nft_description: m.mutableNftDescription,
        mutable_nft_uri: m.mutableNftUri,
        mutable_uri: m.mutableUri,
        mutator_ref: hasMutator ? { self } : null,
        royalty_mutator_ref: m.mutableRoyalty ? { inner: { self, version: '1' } } : null,
      },
      bytes: concatBytes([
        bcs.option(hasMutator ? address : undefined, bcs.address),
        bcs.option(m.mutableRoyalty ? address : undefined, (a) => concatBytes([a, bcs.u64(1n)])),
        bcs.bool(m.mutableDescription),
        bcs.bool(m.mutableUri),
        bcs.bool(m.mutableNftDescription),
        bcs.bool(m.mutableNftUri),
      ]),
    };
  },
  '0x1::nft::Nft'(state, address) {
    const n = moveState.nft(state, address);
    if (!n) return undefined;
    return {
      data: {
        collection: { inner: lit(n.collection) },
        description: n.description,
        token_id: n.tokenId,
        uri: n.uri,
      },
      bytes: concatBytes([
        addr(n.collection),
        bcs.string(n.description),
        bcs.string(n.tokenId),
        bcs.string(n.uri),
      ]),
    };
  },
  '0x1::initia_nft::InitiaNft'(state, address) {
    const n = moveState.nft(state, address);
    const o = moveState.object(state, address);
    if (!n || !o) return undefined;
    const self = toHexLiteral(address);
    return {
      data: {
        burn_ref: n.canBurn ? { delete_ref: { self, version: o.version } } : null,
        mutator_ref: n.mutable ? { self } : null,
      },
      bytes: concatBytes([
        bcs.option(n.canBurn ? address : undefined, (a) => concatBytes([a, u64(o.version)])),
        bcs.option(n.mutable ? address : undefined, bcs.address),
      ]),
    };
  },
};

/** Parses `0x1::module::Name` (any address spelling) into the canonical `0x1::module::Name`. */
export function normalizeStructTag(tag: string): string | undefined {
  const m = /^0x([0-9a-fA-F]{1,64})::([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)$/.exec(tag.trim());
  if (!m) return undefined;
  const hex = m[1]!.padStart(64, '0');
  return `${toHexLiteral(hexToBytes(hex))}::${m[2]}::${m[3]}`;
}

/** Whether a resource of `structTag` sits at `address` (used to build `Object<T>` arguments). */
export function hasResource(state: StateReader, address: Uint8Array, structTag: string): boolean {
  const tag = normalizeStructTag(structTag);
  return tag !== undefined && renderers[tag]?.(state, address) !== undefined;
}

export function readResource(
  state: StateReader,
  address: Uint8Array,
  structTag: string,
): MoveResourceView | undefined {
  const tag = normalizeStructTag(structTag);
  if (tag === undefined) return undefined;
  const rendered = renderers[tag]?.(state, address);
  if (!rendered) return undefined;
  return {
    address: vmAddressString(address),
    struct_tag: tag,
    move_resource: JSON.stringify({ type: tag, data: rendered.data }),
    raw_bytes: Buffer.from(rendered.bytes).toString('base64'),
  };
}
