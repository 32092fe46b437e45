import { hexToBytes } from 'weft/chain/address.js';
import { canonicalHex, collectionAddress, createObjectAddress, toHexLiteral } from './address.js';
import { DECIMAL_ONE, formatDecimal } from './bigdecimal.js';
import { createObject, deleteObject, objectOwner, owns, transferRaw } from './object.js';
import { ErrorCategory, MoveAbort, type MoveSession } from './session.js';
import { type CollectionRecord, moveState, type NftRecord } from './state.js';

/**
 * `0x1::collection`, `0x1::nft` and `0x1::initia_nft` as the minitia stdlib runs them: the same checks in the
 * same order, the same abort codes, and the same events in emission order.
 */

const MAX_NAME_LENGTH = 128;
const MAX_TOKEN_ID_LENGTH = 128;
const MAX_URI_LENGTH = 512;
const MAX_DESCRIPTION_LENGTH = 2048;

const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');

const collectionAbort = (category: number, reason: number) => new MoveAbort('collection', category, reason);
const nftAbort = (category: number, reason: number) => new MoveAbort('nft', category, reason);
const initiaNftAbort = (category: number, reason: number) => new MoveAbort('initia_nft', category, reason);
const { INVALID_ARGUMENT, OUT_OF_RANGE, INVALID_STATE, UNAUTHENTICATED, PERMISSION_DENIED, NOT_FOUND } =
  ErrorCategory;

export interface CreateCollectionArgs {
  description: string;
  maxSupply?: bigint;
  name: string;
  uri: string;
  mutableDescription: boolean;
  mutableRoyalty: boolean;
  mutableUri: boolean;
  mutableNftDescription: boolean;
  mutableNftUri: boolean;
  /** BigDecimal scaled by 10^18. */
  royalty: bigint;
}

/** `initia_nft::create_collection`. Returns the collection address. */
export function createCollection(
  session: MoveSession,
  creator: Uint8Array,
  args: CreateCollectionArgs,
): Uint8Array {
  if (args.royalty > DECIMAL_ONE) throw new MoveAbort('royalty', OUT_OF_RANGE, 2);
  if (args.maxSupply === 0n) throw collectionAbort(INVALID_ARGUMENT, 6);
  if (byteLength(args.name) > MAX_NAME_LENGTH) throw collectionAbort(OUT_OF_RANGE, 3);
  const address = collectionAddress(creator, args.name);
  createObject(session, creator, address);

  if (args.name.includes(':')) throw collectionAbort(INVALID_ARGUMENT, 7);
  if (byteLength(args.uri) > MAX_URI_LENGTH) throw collectionAbort(OUT_OF_RANGE, 4);
  if (byteLength(args.description) > MAX_DESCRIPTION_LENGTH) throw collectionAbort(OUT_OF_RANGE, 5);

  const supply =
    args.maxSupply === undefined
      ? { kind: 'unlimited' as const, currentSupply: '0', totalMinted: '0' }
      : {
          kind: 'fixed' as const,
          currentSupply: '0',
          maxSupply: args.maxSupply.toString(),
          totalMinted: '0',
        };
  const record: CollectionRecord = {
    creator: canonicalHex(creator),
    description: args.description,
    name: args.name,
    uri: args.uri,
    tableHandle: canonicalHex(session.newTableHandle()),
    length: '0',
    supply,
    royalty: { scaled: args.royalty.toString(), payee: canonicalHex(creator) },
    initiaNft: {
      mutableDescription: args.mutableDescription,
      mutableUri: args.mutableUri,
      mutableNftDescription: args.mutableNftDescription,
      mutableNftUri: args.mutableNftUri,
      mutableRoyalty: args.mutableRoyalty,
    },
  };
  moveState.setCollection(session.store, address, record);
  const supplyJson: Record<string, string> =
    supply.kind === 'fixed'
      ? { current_supply: '0', max_supply: supply.maxSupply, total_minted: '0' }
      : { current_supply: '0', total_minted: '0' };
  session.emit('0x1::collection::CreateEvent', {
    collection: toHexLiteral(address),
    creator: toHexLiteral(creator),
    name: args.name,
    description: args.description,
    uri: args.uri,
    royalty: { royalty: formatDecimal(args.royalty), payee_address: toHexLiteral(creator) },
    supply: supplyJson,
  });
  session.emit('0x1::collection::CreateCollectionEvent', {
    collection: toHexLiteral(address),
    creator: toHexLiteral(creator),
    name: args.name,
  });
  return address;
}

export interface MintArgs {
  collection: string;
  description: string;
  tokenId: string;
  uri: string;
  canBurn: boolean;
  to?: Uint8Array;
}

/** `initia_nft::mint`: creates the NFT object owned by the signer, then transfers it to `to` when given. */
export function mint(session: MoveSession, signer: Uint8Array, args: MintArgs): Uint8Array {
  const { store } = session;
  if (byteLength(args.collection) > MAX_NAME_LENGTH) throw collectionAbort(OUT_OF_RANGE, 3);
  const collection = collectionAddress(signer, args.collection);
  if (!moveState.object(store, collection)) throw new MoveAbort('object', NOT_FOUND, 2);
  const record = moveState.collection(store, collection);
  if (!record) throw new MoveAbort('object', NOT_FOUND, 7);

  if (byteLength(args.tokenId) > MAX_TOKEN_ID_LENGTH) throw nftAbort(OUT_OF_RANGE, 4);
  const seed = new TextEncoder().encode(`${record.name}::${args.tokenId}`);
  const nft = createObjectAddress(hexToBytes(record.creator), seed);
  createObject(session, signer, nft);

  // Only the collection's owner may create NFTs in it.
  if (canonicalHex(objectOwner(session, collection)) !== canonicalHex(signer)) {
    throw nftAbort(UNAUTHENTICATED, 10);
  }
  if (args.tokenId.includes(':')) throw nftAbort(INVALID_ARGUMENT, 9);
  if (byteLength(args.description) > MAX_DESCRIPTION_LENGTH) throw nftAbort(OUT_OF_RANGE, 7);
  if (byteLength(args.uri) > MAX_URI_LENGTH) throw nftAbort(OUT_OF_RANGE, 6);

  const supply = record.supply;
  if (supply) {
    const current = BigInt(supply.currentSupply) + 1n;
    if (supply.kind === 'fixed' && current > BigInt(supply.maxSupply!))
      throw collectionAbort(OUT_OF_RANGE, 2);
    supply.currentSupply = current.toString();
    supply.totalMinted = (BigInt(supply.totalMinted) + 1n).toString();
    record.length = (BigInt(record.length) + 1n).toString();
    moveState.setCollection(store, collection, record);
    session.emit('0x1::collection::MintEvent', {
      collection: toHexLiteral(collection),
      token_id: args.tokenId,
      nft: toHexLiteral(nft),
    });
  }
  const { mutableNftDescription, mutableNftUri } = record.initiaNft;
  moveState.setNft(store, nft, {
    collection: canonicalHex(collection),
    description: args.description,
    tokenId: args.tokenId,
    uri: args.uri,
    canBurn: args.canBurn,
    mutable: mutableNftDescription || mutableNftUri,
  });
  session.emit('0x1::nft::CreateEvent', {
    collection: toHexLiteral(collection),
    token_id: args.tokenId,
    description: args.description,
    uri: args.uri,
  });
  if (args.to) transferRaw(session, signer, nft, args.to);
  return nft;
}

/** `initia_nft::burn`. */
export function burn(session: MoveSession, owner: Uint8Array, nft: Uint8Array): void {
  const { store } = session;
  const record = moveState.nft(store, nft);
  if (!record) throw initiaNftAbort(NOT_FOUND, 2);
  if (!owns(session, nft, owner)) throw initiaNftAbort(PERMISSION_DENIED, 5);
  if (!record.canBurn) throw initiaNftAbort(INVALID_STATE, 6);

  deleteObject(session, nft);
  moveState.setNft(store, nft, undefined);
  const collection = hexToBytes(record.collection);
  const col = moveState.collection(store, collection)!;
  if (col.supply) {
    col.supply.currentSupply = (BigInt(col.supply.currentSupply) - 1n).toString();
    col.length = (BigInt(col.length) - 1n).toString();
    moveState.setCollection(store, collection, col);
    session.emit('0x1::collection::BurnEvent', {
      collection: toHexLiteral(collection),
      token_id: record.tokenId,
      nft: toHexLiteral(nft),
    });
  }
}

type NftField = 'uri' | 'description';

/** `initia_nft::set_uri` / `set_description`: collection-level mutability, creator only. */
export function setNftField(
  session: MoveSession,
  creator: Uint8Array,
  nft: Uint8Array,
  field: NftField,
  value: string,
): void {
  const { store } = session;
  const record = moveState.nft(store, nft);
  if (!record) throw nftAbort(NOT_FOUND, 1);
  const col = moveState.collection(store, hexToBytes(record.collection));
  if (!col) throw initiaNftAbort(NOT_FOUND, 1);
  const mutable = field === 'uri' ? col.initiaNft.mutableNftUri : col.initiaNft.mutableNftDescription;
  if (!mutable) throw initiaNftAbort(PERMISSION_DENIED, 4);
  if (col.creator !== canonicalHex(creator)) throw initiaNftAbort(PERMISSION_DENIED, 3);
  if (field === 'uri' && byteLength(value) > MAX_URI_LENGTH) throw nftAbort(OUT_OF_RANGE, 6);
  if (field === 'description' && byteLength(value) > MAX_DESCRIPTION_LENGTH) throw nftAbort(OUT_OF_RANGE, 7);
  session.emit('0x1::nft::MutationEvent', {
    nft: toHexLiteral(nft),
    mutated_field_name: field,
    old_value: record[field],
    new_value: value,
  });
  moveState.setNft(store, nft, { ...record, [field]: value } satisfies NftRecord);
}

/** `initia_nft::set_collection_uri` / `set_collection_description`. */
export function setCollectionField(
  session: MoveSession,
  creator: Uint8Array,
  collection: Uint8Array,
  field: NftField,
  value: string,
): void {
  const { store } = session;
  const col = moveState.collection(store, collection);
  if (!col) throw initiaNftAbort(NOT_FOUND, 1);
  if (col.creator !== canonicalHex(creator)) throw initiaNftAbort(PERMISSION_DENIED, 3);
  const mutable = field === 'uri' ? col.initiaNft.mutableUri : col.initiaNft.mutableDescription;
  if (!mutable) throw initiaNftAbort(PERMISSION_DENIED, 4);
  if (field === 'uri' && byteLength(value) > MAX_URI_LENGTH) throw collectionAbort(OUT_OF_RANGE, 4);
  if (field === 'description' && byteLength(value) > MAX_DESCRIPTION_LENGTH) {
    throw collectionAbort(OUT_OF_RANGE, 5);
  }
  session.emit('0x1::collection::MutationEvent', {
    collection: toHexLiteral(collection),
    mutated_field_name: field,
    old_value: col[field],
    new_value: value,
  });
  moveState.setCollection(store, collection, { ...col, [field]: value });
}
