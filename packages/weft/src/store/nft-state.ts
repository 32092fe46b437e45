import { storedText } from './bulk.js';
import { addressKey, type Dictionary } from './dictionary.js';
import type { NftChange, NftKey } from './records.js';
import type { WriteSession } from './write-session.js';

/**
 * The in-memory model of the NFT state a batch touches, and its loading: the touched collections
 * and tokens as they are before the batch, and the creation facts of the collections it creates.
 */

/** What the NFT bookkeeping needs to know about one block of the batch. */
export interface NftBlock {
  height: number;
  time: string;
  changes: NftChange[];
  origins: Array<{ className: string; originName: string }>;
  /** The block's cosmos txs: position in block → sequence and signer; NFTs each tx names. */
  txs: Map<number, { sequence: number; signerId: number; nfts: NftKey[] }>;
  /** Last cosmos tx sequence written up to and including this block. */
  lastSequence: number;
}

export interface Collection {
  id: number;
  addr: Uint8Array;
  name: string;
  originName: string;
  creatorId: number | null;
  height: number;
  time: string;
  isNew: boolean;
  originChanged: boolean;
  nftDelta: number;
}

export interface Token {
  id: number;
  collection: Collection;
  tokenId: string;
  objectAddr: Uint8Array | null;
  isNew: boolean;
  objectChanged: boolean;
  wasLive: boolean;
  live: boolean;
  ownerId: number;
  uri: string;
  height: number;
  time: string;
  dirty: boolean;
  txDelta: number;
}

/** Move changes name the NFT object; records.ts may carry it on transfer/uri/burn as `objectAddr`. */
export const objectOf = (change: NftChange): Uint8Array | undefined =>
  (change as { objectAddr?: Uint8Array }).objectAddr;

export interface Creation {
  name: string;
  creatorId: number | null;
  height: number;
  time: string;
}

/**
 * Creator, height and time of the collections this batch creates. Without an explicit creator
 * (EVM) they come from the first indexed tx that touched the collection's address, as rollytics
 * does: the lowest sequence among its account edges, up to the end of the creating block. If no tx
 * touched it, the creating tx's signer and block stand in.
 */
export async function deriveCreations(
  session: WriteSession,
  accounts: Dictionary<Uint8Array>,
  accountIds: Map<string, number>,
  blocks: NftBlock[],
  existing: Map<string, Collection>,
): Promise<Map<string, Creation>> {
  const creations = new Map<string, Creation>();
  const derive: Array<{ key: string; addr: Uint8Array; bound: number }> = [];
  for (const block of blocks) {
    for (const change of block.changes) {
      if (change.kind !== 'collection' && change.kind !== 'mint') continue;
      const addr = change.kind === 'collection' ? change.collection : change.nft.collection;
      const key = addressKey(addr);
      if (existing.has(key) || creations.has(key)) continue;
      const creator = change.kind === 'collection' ? change.creator : undefined;
      const signer = change.txIndex === null ? undefined : block.txs.get(change.txIndex)?.signerId;
      creations.set(key, {
        name: change.kind === 'collection' ? storedText(change.name) : '',
        creatorId: creator ? (accountIds.get(addressKey(creator)) ?? null) : (signer ?? null),
        height: block.height,
        time: block.time,
      });
      if (!creator) derive.push({ key, addr, bound: block.lastSequence });
    }
  }
  if (derive.length === 0) return creations;
  const ids = await accounts.resolve(
    session,
    derive.map((d) => d.addr),
    false,
  );
  const lookups = derive.filter((d) => ids.has(d.key));
  if (lookups.length === 0) return creations;
  const firstTxs = await session.tx.query<{
    account_id: string;
    signer_id: string;
    height: string;
    timestamp: string;
  }>(
    `SELECT c.account_id, f.signer_id, f.height, b.timestamp
     FROM ROWS FROM (unnest($1::int8[]), unnest($2::int8[])) AS c(account_id, bound)
     CROSS JOIN LATERAL (
       SELECT p.first_sequence AS sequence FROM tx_account_pack p
       WHERE p.account_id = c.account_id AND p.first_sequence <= c.bound ORDER BY p.first_sequence LIMIT 1
     ) s
     JOIN tx f ON f.sequence = s.sequence
     JOIN block b ON b.height = f.height`,
    [lookups.map((d) => ids.get(d.key)), lookups.map((d) => d.bound)],
  );
  const byAccount = new Map(firstTxs.map((row) => [Number(row.account_id), row]));
  for (const d of lookups) {
    const first = byAccount.get(ids.get(d.key)!);
    if (!first) continue;
    Object.assign(creations.get(d.key)!, {
      creatorId: Number(first.signer_id),
      height: Number(first.height),
      time: first.timestamp,
    });
  }
  return creations;
}

export async function prefetchTokens(
  session: WriteSession,
  blocks: NftBlock[],
  collections: Map<string, Collection>,
): Promise<Map<string, Token>> {
  const keys = new Map<string, { collection: Collection; tokenId: string }>();
  const objects = new Map<string, Uint8Array>();
  const noteKey = (key: NftKey) => {
    const collection = collections.get(addressKey(key.collection));
    const tokenId = storedText(key.tokenId);
    if (collection) keys.set(`${collection.id}:${tokenId}`, { collection, tokenId });
  };
  for (const block of blocks) {
    for (const change of block.changes) {
      if (change.kind === 'collection') continue;
      const object = objectOf(change);
      if (object) objects.set(addressKey(object), object);
      else noteKey(change.nft);
    }
    for (const t of block.txs.values()) t.nfts.forEach(noteKey);
  }
  const tokens = new Map<string, Token>();
  if (keys.size === 0 && objects.size === 0) return tokens;
  const byId = new Map([...collections.values()].map((c) => [c.id, c]));
  const select = `SELECT k.id, k.collection_id, k.token_id, k.object_addr, n.id IS NOT NULL AS live, n.owner_id, n.uri, n.height, n.timestamp
    FROM nft_token k LEFT JOIN nft n ON n.id = k.id`;
  const rows = await session.tx.query<{
    id: string;
    collection_id: string;
    token_id: string;
    object_addr: Buffer | null;
    live: boolean;
    owner_id: string | null;
    uri: string | null;
    height: string | null;
    timestamp: string | null;
  }>(
    `${select} JOIN ROWS FROM (unnest($1::int8[]), unnest($2::text[])) AS r(collection_id, token_id)
       ON k.collection_id = r.collection_id AND k.token_id = r.token_id COLLATE "C"
     UNION
     ${select} WHERE k.object_addr = ANY($3::bytea[])`,
    [
      [...keys.values()].map((k) => k.collection.id),
      [...keys.values()].map((k) => k.tokenId),
      [...objects.values()],
    ],
  );
  const unnamed = [...new Set(rows.map((r) => Number(r.collection_id)).filter((id) => !byId.has(id)))];
  if (unnamed.length > 0) {
    // Move NFTs found by object address may belong to collections the batch never names.
    for (const c of await fetchCollections(session, 'id = ANY($1::int8[])', [unnamed])) {
      collections.set(addressKey(c.addr), c);
      byId.set(c.id, c);
    }
  }
  for (const row of rows) {
    const collection = byId.get(Number(row.collection_id))!;
    tokens.set(`${collection.id}:${row.token_id}`, {
      id: Number(row.id),
      collection,
      tokenId: row.token_id,
      objectAddr: row.object_addr,
      isNew: false,
      objectChanged: false,
      wasLive: row.live,
      live: row.live,
      ownerId: row.owner_id === null ? 0 : Number(row.owner_id),
      uri: row.uri ?? '',
      height: row.height === null ? 0 : Number(row.height),
      time: row.timestamp ?? '',
      dirty: false,
      txDelta: 0,
    });
  }
  return tokens;
}

export async function fetchCollections(
  session: WriteSession,
  where: string,
  params: unknown[],
): Promise<Collection[]> {
  const rows = await session.tx.query<{
    id: string;
    addr: Buffer;
    name: string;
    origin_name: string;
    creator_id: string | null;
    height: string;
    timestamp: string;
  }>(
    `SELECT id, addr, name, origin_name, creator_id, height, timestamp FROM nft_collection WHERE ${where}`,
    params,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    addr: row.addr,
    name: row.name,
    originName: row.origin_name,
    creatorId: row.creator_id === null ? null : Number(row.creator_id),
    height: Number(row.height),
    time: row.timestamp,
    isNew: false,
    originChanged: false,
    nftDelta: 0,
  }));
}
