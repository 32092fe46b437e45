import type { StateReader, StateStore } from '../state/store.js';
import { canonicalHex } from './address.js';

/**
 * The Move resources the NFT modules keep, one JSON record per object under `move/<kind>/<address hex>`.
 * A record stands for the resources the stdlib would `move_to` that address (see `resources.ts`).
 */

/** `0x1::object::ObjectCore`. */
export interface ObjectRecord {
  owner: string;
  allowUngatedTransfer: boolean;
  version: string;
}

export interface SupplyRecord {
  kind: 'fixed' | 'unlimited';
  currentSupply: string;
  maxSupply?: string;
  totalMinted: string;
}

/** `0x1::collection::Collection` plus its supply, royalty and `0x1::initia_nft::InitiaNftCollection`. */
export interface CollectionRecord {
  creator: string;
  description: string;
  name: string;
  uri: string;
  /** Handle of the `nfts: Table<String, address>`. */
  tableHandle: string;
  /** Entries in `nfts`. */
  length: string;
  supply: SupplyRecord | null;
  /** `0x1::royalty::Royalty`: the BigDecimal's scaled integer and the payee. */
  royalty: { scaled: string; payee: string } | null;
  initiaNft: {
    mutableDescription: boolean;
    mutableUri: boolean;
    mutableNftDescription: boolean;
    mutableNftUri: boolean;
    mutableRoyalty: boolean;
  };
}

/** `0x1::nft::Nft` plus `0x1::initia_nft::InitiaNft` (which refs it holds). */
export interface NftRecord {
  collection: string;
  description: string;
  tokenId: string;
  uri: string;
  canBurn: boolean;
  mutable: boolean;
}

type Kind = 'object' | 'tombstone' | 'collection' | 'nft';
const key = (kind: Kind, address: Uint8Array) => `move/${kind}/${canonicalHex(address)}`;
const EXECUTION_COUNTER = 'move/exec';

function read<T>(state: StateReader, k: string): T | undefined {
  const raw = state.get(k);
  return raw === undefined ? undefined : (JSON.parse(raw) as T);
}

export interface MoveState {
  object(state: StateReader, address: Uint8Array): ObjectRecord | undefined;
  setObject(store: StateStore, address: Uint8Array, record: ObjectRecord | undefined): void;
  /** Version of a deleted object (`0x1::object::Tombstone`). */
  tombstone(state: StateReader, address: Uint8Array): string | undefined;
  setTombstone(store: StateStore, address: Uint8Array, version: string | undefined): void;
  collection(state: StateReader, address: Uint8Array): CollectionRecord | undefined;
  setCollection(store: StateStore, address: Uint8Array, record: CollectionRecord): void;
  nft(state: StateReader, address: Uint8Array): NftRecord | undefined;
  setNft(store: StateStore, address: Uint8Array, record: NftRecord | undefined): void;
  /** The keeper's `ExecutionCounter`, one step per entry-function call. */
  nextExecution(store: StateStore): bigint;
}

export const moveState: MoveState = {
  object: (state, address) => read(state, key('object', address)),
  setObject: (store, address, record) => store.set(key('object', address), record && JSON.stringify(record)),
  tombstone: (state, address) => state.get(key('tombstone', address)),
  setTombstone: (store, address, version) => store.set(key('tombstone', address), version),
  collection: (state, address) => read(state, key('collection', address)),
  setCollection: (store, address, record) => store.set(key('collection', address), JSON.stringify(record)),
  nft: (state, address) => read(state, key('nft', address)),
  setNft: (store, address, record) => store.set(key('nft', address), record && JSON.stringify(record)),
  nextExecution(store) {
    const next = BigInt(store.get(EXECUTION_COUNTER) ?? '0') + 1n;
    store.set(EXECUTION_COUNTER, next.toString());
    return next;
  },
};
