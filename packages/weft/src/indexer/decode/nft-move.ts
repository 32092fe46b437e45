import { attributesOf } from '../../protocol/events.js';
import type { NftKey } from '../../store/records.js';
import { type AccountRef, accAddressFromString, moveObjectAddress } from './account-address.js';
import type { BlockEvent } from './block-events.js';
import { type DropReporter, ignoreDrops } from './drops.js';
import { type MetaAnswers, metaKeys, type RequestList } from './meta.js';
import { createNftChanges, type NftDecodeResult } from './nft-changes.js';

/**
 * Move NFTs (rollytics move-nft) from `move` events. Mints read `0x1::nft::Nft` at the mint height for the
 * token id and URI; the initial owner is the collection's creator (from the block's CreateCollectionEvent or
 * the `0x1::collection::Collection` resource). Transfers and URI changes name only the object, so the token
 * behind an object not minted or burned in this block is looked up once through its `0x1::nft::Nft`
 * resource (a height-free key: an object address always holds the same collection and token id); objects
 * that are not NFTs answer an error and are skipped, as rollytics' `UPDATE … WHERE addr` matches nothing.
 * Move txs get no per-tx NFT list: the NFT history goes through the object address in the tx's accounts.
 */

const NFT_TAG = '0x1::nft::Nft';
const COLLECTION_TAG = '0x1::collection::Collection';

type MoveNftEvent =
  | {
      kind: 'create-collection';
      collection: AccountRef;
      creator: string;
      name: string;
      txIndex: number | null;
    }
  | { kind: 'mint'; collection: AccountRef; nft: AccountRef; tokenId?: string; txIndex: number | null }
  | { kind: 'transfer'; object: AccountRef; to: string; txIndex: number | null }
  | { kind: 'uri'; nft: AccountRef; uri: string; txIndex: number | null }
  | { kind: 'burn'; collection: AccountRef; nft: AccountRef; tokenId?: string; txIndex: number | null };

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const stripNul = (s: string) => s.replaceAll('\u0000', '');

/** The NFT event a `move` event is; undefined for other events, null for one whose fields do not read. */
function parseEvent(
  typeTag: string,
  data: Record<string, unknown>,
  txIndex: number | null,
): MoveNftEvent | undefined | null {
  switch (typeTag) {
    case '0x1::collection::CreateCollectionEvent': {
      const collection = moveObjectAddress(str(data.collection) ?? '');
      const creator = str(data.creator);
      if (!collection || creator === undefined) return null;
      return {
        kind: 'create-collection',
        collection,
        creator,
        name: stripNul(str(data.name) ?? ''),
        txIndex,
      };
    }
    case '0x1::collection::MintEvent':
    case '0x1::collection::BurnEvent': {
      const collection = moveObjectAddress(str(data.collection) ?? '');
      const nft = moveObjectAddress(str(data.nft) ?? '');
      if (!collection || !nft) return null;
      const tokenId = str(data.token_id);
      const kind = typeTag === '0x1::collection::MintEvent' ? 'mint' : 'burn';
      return {
        kind,
        collection,
        nft,
        ...(tokenId === undefined ? {} : { tokenId: stripNul(tokenId) }),
        txIndex,
      };
    }
    case '0x1::object::TransferEvent': {
      const object = moveObjectAddress(str(data.object) ?? '');
      const to = str(data.to);
      return object && to !== undefined ? { kind: 'transfer', object, to, txIndex } : null;
    }
    case '0x1::nft::MutationEvent': {
      if (data.mutated_field_name !== 'uri') return undefined;
      const nft = moveObjectAddress(str(data.nft) ?? '');
      if (!nft) return null;
      return { kind: 'uri', nft, uri: stripNul(str(data.new_value) ?? ''), txIndex };
    }
    default:
      return undefined;
  }
}

/** The block's Move NFT events; of the two passes over a block, one reports drops. */
function moveNftEvents(events: BlockEvent[], drops: DropReporter = ignoreDrops): MoveNftEvent[] {
  const out: MoveNftEvent[] = [];
  for (const { event, txIndex } of events) {
    if (event.type !== 'move') continue;
    const attrs = attributesOf(event);
    const typeTag = attrs.type_tag;
    const data = attrs.data;
    if (typeTag === undefined || data === undefined) {
      drops.drop('nft_move', 'missing_attribute', { typeTag });
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      drops.drop('nft_move', 'bad_json', { typeTag });
      continue;
    }
    if (parsed === null || typeof parsed !== 'object') {
      drops.drop('nft_move', 'bad_json', { typeTag });
      continue;
    }
    const e = parseEvent(typeTag, parsed as Record<string, unknown>, txIndex);
    if (e) out.push(e);
    else if (e === null) drops.drop('nft_move', 'bad_fields', { typeTag });
  }
  return out;
}

const lit = (a: AccountRef) => `0x${a.hex}`;

/** What the block itself says about its objects, and which lookups it still needs. */
function plan(events: MoveNftEvent[], height: number) {
  const created = new Map<string, string>(); // collection hex → creator text
  const minted = new Map<string, Extract<MoveNftEvent, { kind: 'mint' }>>();
  const liveAtEnd = new Map<string, boolean>();
  const burned = new Map<string, Extract<MoveNftEvent, { kind: 'burn' }>>();
  for (const e of events) {
    if (e.kind === 'create-collection') created.set(e.collection.hex, e.creator);
    else if (e.kind === 'mint') {
      minted.set(e.nft.hex, e);
      liveAtEnd.set(e.nft.hex, true);
    } else if (e.kind === 'burn') {
      burned.set(e.nft.hex, e);
      liveAtEnd.set(e.nft.hex, false);
    }
  }
  const mintKey = (nft: AccountRef) => metaKeys.moveResource(lit(nft), NFT_TAG, height);
  const identityKey = (object: AccountRef) => metaKeys.moveResource(lit(object), NFT_TAG);
  const collectionKey = (collection: AccountRef) => metaKeys.moveResource(lit(collection), COLLECTION_TAG);
  const needsMintQuery = (nft: AccountRef) => liveAtEnd.get(nft.hex) === true;
  /** Objects whose token the block does not tell: neither minted here nor burned with a token id. */
  const needsIdentity = (object: AccountRef) =>
    !minted.has(object.hex) && burned.get(object.hex)?.tokenId === undefined;
  return { created, minted, burned, mintKey, identityKey, collectionKey, needsMintQuery, needsIdentity };
}

export function moveNftRequests(events: BlockEvent[], height: number, out: RequestList): void {
  const nftEvents = moveNftEvents(events);
  const p = plan(nftEvents, height);
  const resource = (address: AccountRef, structTag: string, key: string) =>
    out.add({ kind: 'move-resource', key, address: lit(address), structTag });
  for (const e of nftEvents) {
    if (e.kind === 'mint') {
      if (p.needsMintQuery(e.nft)) resource(e.nft, NFT_TAG, p.mintKey(e.nft));
      if (!p.created.has(e.collection.hex))
        resource(e.collection, COLLECTION_TAG, p.collectionKey(e.collection));
    } else if (e.kind === 'transfer' || e.kind === 'uri') {
      const object = e.kind === 'transfer' ? e.object : e.nft;
      if (p.needsIdentity(object)) resource(object, NFT_TAG, p.identityKey(object));
    } else if (e.kind === 'burn' && e.tokenId === undefined && !p.minted.has(e.nft.hex)) {
      resource(e.nft, NFT_TAG, p.identityKey(e.nft));
    }
  }
}

/** `data` of a resource answer (`{type, data}`), or undefined when the resource is not there. */
function resourceData(answer: { ok: boolean; value?: unknown }): Record<string, any> | undefined {
  if (!answer.ok || answer.value === null || typeof answer.value !== 'object') return undefined;
  const data = (answer.value as { data?: unknown }).data;
  return data !== null && typeof data === 'object' ? (data as Record<string, any>) : undefined;
}

export function moveNftChanges(
  events: BlockEvent[],
  height: number,
  prefix: string,
  answers: MetaAnswers,
  drops: DropReporter = ignoreDrops,
): NftDecodeResult {
  const nftEvents = moveNftEvents(events, drops);
  const p = plan(nftEvents, height);
  const out = createNftChanges();

  const mintResource = (nft: AccountRef) =>
    p.needsMintQuery(nft) ? resourceData(answers.get(p.mintKey(nft))) : undefined;

  /** The token behind an object, from this block's mint or burn, or from its looked-up resource. */
  const identity = (object: AccountRef): NftKey | undefined => {
    const mint = p.minted.get(object.hex);
    if (mint) {
      const tokenId = str(mintResource(object)?.token_id) ?? mint.tokenId;
      return tokenId === undefined
        ? undefined
        : { collection: mint.collection.bytes, tokenId: stripNul(tokenId) };
    }
    const burn = p.burned.get(object.hex);
    if (burn?.tokenId !== undefined) return { collection: burn.collection.bytes, tokenId: burn.tokenId };
    const data = resourceData(answers.get(p.identityKey(object)));
    const collection = moveObjectAddress(str(data?.collection?.inner) ?? '');
    const tokenId = str(data?.token_id);
    return collection && tokenId !== undefined
      ? { collection: collection.bytes, tokenId: stripNul(tokenId) }
      : undefined;
  };

  const creatorOf = (collection: AccountRef): AccountRef | null => {
    const created = p.created.get(collection.hex);
    const text = created ?? str(resourceData(answers.get(p.collectionKey(collection)))?.creator);
    if (text === undefined) return null;
    const creator = accAddressFromString(text, prefix);
    if (!creator) drops.drop('nft_move', 'bad_address', { collection: lit(collection), creator: text });
    return creator;
  };

  for (const e of nftEvents) {
    switch (e.kind) {
      case 'create-collection': {
        const creator = accAddressFromString(e.creator, prefix);
        // The collection is kept without its creator.
        if (!creator)
          drops.drop('nft_move', 'bad_address', { collection: lit(e.collection), creator: e.creator });
        out.push({
          kind: 'collection',
          collection: e.collection.bytes,
          name: e.name,
          ...(creator ? { creator: creator.bytes } : {}),
          txIndex: e.txIndex,
        });
        break;
      }
      case 'mint': {
        const nft = identity(e.nft);
        const owner = creatorOf(e.collection);
        if (!nft || !owner) break;
        const uri = stripNul(str(mintResource(e.nft)?.uri) ?? '');
        out.push({ kind: 'mint', nft, objectAddr: e.nft.bytes, owner: owner.bytes, uri, txIndex: e.txIndex });
        break;
      }
      case 'transfer': {
        const nft = identity(e.object);
        // An object that is no NFT is not ours; a recipient that is no address does not read.
        if (!nft) break;
        const to = accAddressFromString(e.to, prefix);
        if (to) out.push({ kind: 'transfer', nft, to: to.bytes, txIndex: e.txIndex });
        else drops.drop('nft_move', 'bad_address', { object: lit(e.object), to: e.to });
        break;
      }
      case 'uri': {
        const nft = identity(e.nft);
        if (nft) out.push({ kind: 'uri', nft, uri: e.uri, txIndex: e.txIndex });
        break;
      }
      case 'burn': {
        const nft =
          e.tokenId === undefined ? identity(e.nft) : { collection: e.collection.bytes, tokenId: e.tokenId };
        if (nft) out.push({ kind: 'burn', nft, txIndex: e.txIndex });
        break;
      }
    }
  }
  return out.result();
}
