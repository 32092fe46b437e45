import { insertRows } from './bulk.js';
import { collectionNameKey } from './collection-name.js';
import type { Collection, Token } from './nft-state.js';
import type { WriteSession } from './write-session.js';

export interface NftBook {
  collections: Collection[];
  tokens: Token[];
  holdings: Array<{ ownerId: number; collection: Collection; delta: number }>;
  /** `${nftTokenId}:${sequence}` of every tx-history edge the batch adds. */
  edges: Set<string>;
}

/** Writes the end state of a batch's NFT replay: one statement per table. */
export async function writeNftBook(session: WriteSession, book: NftBook): Promise<void> {
  const { tx } = session;

  const collections = book.collections.filter((c) => c.isNew || c.nftDelta !== 0 || c.originChanged);
  await insertRows(
    tx,
    'nft_collection',
    {
      id: ['int8', collections.map((c) => c.id)],
      addr: ['bytea', collections.map((c) => c.addr)],
      name: ['text', collections.map((c) => c.name)],
      origin_name: ['text', collections.map((c) => c.originName)],
      name_key: ['text', collections.map((c) => collectionNameKey(c.name))],
      origin_key: ['text', collections.map((c) => collectionNameKey(c.originName))],
      creator_id: ['int8', collections.map((c) => c.creatorId)],
      height: ['int8', collections.map((c) => c.height)],
      timestamp: ['timestamptz', collections.map((c) => c.time)],
      // For an existing collection this is the change, added on conflict.
      nft_count: ['int8', collections.map((c) => c.nftDelta)],
    },
    `ON CONFLICT (id) DO UPDATE SET nft_count = t.nft_count + EXCLUDED.nft_count,
       origin_name = EXCLUDED.origin_name, origin_key = EXCLUDED.origin_key`,
  );

  const tokens = book.tokens.filter((t) => t.isNew || t.txDelta !== 0 || t.objectChanged);
  await insertRows(
    tx,
    'nft_token',
    {
      id: ['int8', tokens.map((t) => t.id)],
      collection_id: ['int8', tokens.map((t) => t.collection.id)],
      token_id: ['text', tokens.map((t) => t.tokenId)],
      object_addr: ['bytea', tokens.map((t) => t.objectAddr)],
      txs: ['int8', tokens.map((t) => t.txDelta)],
    },
    `ON CONFLICT (id) DO UPDATE SET txs = t.txs + EXCLUDED.txs, object_addr = EXCLUDED.object_addr`,
  );

  const burned = book.tokens.filter((t) => t.wasLive && !t.live).map((t) => t.id);
  if (burned.length > 0) await tx.query('DELETE FROM nft WHERE id = ANY($1::int8[])', [burned]);
  const live = book.tokens.filter((t) => t.live && t.dirty);
  await insertRows(
    tx,
    'nft',
    {
      id: ['int8', live.map((t) => t.id)],
      collection_id: ['int8', live.map((t) => t.collection.id)],
      token_id: ['text', live.map((t) => t.tokenId)],
      object_addr: ['bytea', live.map((t) => t.objectAddr)],
      owner_id: ['int8', live.map((t) => t.ownerId)],
      uri: ['text', live.map((t) => t.uri)],
      height: ['int8', live.map((t) => t.height)],
      timestamp: ['timestamptz', live.map((t) => t.time)],
    },
    `ON CONFLICT (id) DO UPDATE SET owner_id = EXCLUDED.owner_id, uri = EXCLUDED.uri, height = EXCLUDED.height,
       timestamp = EXCLUDED.timestamp, object_addr = EXCLUDED.object_addr`,
  );

  await writeHoldings(
    session,
    book.holdings.filter((h) => h.delta !== 0),
  );

  const edges = [...book.edges].map((e) => e.split(':').map(Number) as [number, number]);
  await insertRows(tx, 'tx_nft', {
    nft_token_id: ['int8', edges.map(([token]) => token)],
    sequence: ['int8', edges.map(([, sequence]) => sequence)],
  });
}

/**
 * Holdings change by net deltas; an owner's collection count moves when a holding appears (0 → n)
 * or disappears (n → 0), so the current counts of the touched pairs are read first.
 */
async function writeHoldings(session: WriteSession, holdings: NftBook['holdings']): Promise<void> {
  if (holdings.length === 0) return;
  const { tx } = session;
  const rows = await tx.query<{ owner_id: string; collection_id: string; nfts: string }>(
    `SELECT h.owner_id, h.collection_id, h.nfts FROM nft_holding h
     JOIN ROWS FROM (unnest($1::int8[]), unnest($2::int8[])) AS r(owner_id, collection_id)
       ON h.owner_id = r.owner_id AND h.collection_id = r.collection_id`,
    [holdings.map((h) => h.ownerId), holdings.map((h) => h.collection.id)],
  );
  const current = new Map(rows.map((r) => [`${r.owner_id}:${r.collection_id}`, Number(r.nfts)]));
  const kept: Array<{ ownerId: number; collection: Collection; nfts: number }> = [];
  const gone: typeof kept = [];
  for (const h of holdings) {
    const before = current.get(`${h.ownerId}:${h.collection.id}`) ?? 0;
    const after = before + h.delta;
    if (after < 0)
      throw new Error(
        `nft holding of account ${h.ownerId} in collection ${h.collection.id} would be ${after}`,
      );
    if (before === 0 && after > 0) session.addAccountStat(h.ownerId, 'collections', 1);
    if (before > 0 && after === 0) session.addAccountStat(h.ownerId, 'collections', -1);
    (after > 0 ? kept : gone).push({ ownerId: h.ownerId, collection: h.collection, nfts: after });
  }
  await insertRows(
    tx,
    'nft_holding',
    {
      owner_id: ['int8', kept.map((h) => h.ownerId)],
      collection_id: ['int8', kept.map((h) => h.collection.id)],
      collection_height: ['int8', kept.map((h) => h.collection.height)],
      nfts: ['int8', kept.map((h) => h.nfts)],
    },
    'ON CONFLICT (owner_id, collection_id) DO UPDATE SET nfts = EXCLUDED.nfts',
  );
  if (gone.length > 0) {
    await tx.query(
      `DELETE FROM nft_holding h USING ROWS FROM (unnest($1::int8[]), unnest($2::int8[])) AS r(owner_id, collection_id)
       WHERE h.owner_id = r.owner_id AND h.collection_id = r.collection_id`,
      [gone.map((h) => h.ownerId), gone.map((h) => h.collection.id)],
    );
  }
}
