import type { Db } from '../db.js';
import {
  afterTuple,
  createParams,
  direction,
  limitClause,
  type Page,
  type PageRequest,
  pageStatement,
  type Row,
  toPage,
} from './page.js';

export interface TokenRow {
  id: number;
  collectionAddr: Uint8Array;
  collectionName: string;
  collectionOriginName: string;
  /** Move object address of the NFT. */
  objectAddr: Uint8Array | null;
  owner: Uint8Array;
  tokenId: string;
  uri: string;
  /** Last mint, transfer or change. */
  height: number;
  timestamp: string;
}

export type TokenOrder = 'token_id' | 'height';

/** Tokens are ordered by token id then height (or height then token id), then id. */
export interface TokenCursor {
  tokenId: string;
  height: number;
  id: number;
}

export interface TokenFilter {
  /** Only this collection's tokens. */
  collection?: Uint8Array;
  tokenId?: string;
  orderBy: TokenOrder;
}

const tokenRow = (row: Row): TokenRow => ({
  id: Number(row.id),
  collectionAddr: row.collection_addr as Uint8Array,
  collectionName: row.collection_name as string,
  collectionOriginName: row.collection_origin_name as string,
  objectAddr: (row.object_addr as Uint8Array | null) ?? null,
  owner: row.owner as Uint8Array,
  tokenId: row.token_id as string,
  uri: row.uri as string,
  height: Number(row.height),
  timestamp: row.timestamp as string,
});

const withDetails = (keys: string) => `SELECT n.id, n.token_id, n.height, n.timestamp, n.uri, n.object_addr,
    c.addr AS collection_addr, c.name AS collection_name, c.origin_name AS collection_origin_name, o.address AS owner
  FROM (${keys}) q JOIN nft n ON n.id = q.id JOIN nft_collection c ON c.id = n.collection_id JOIN account o ON o.id = n.owner_id`;

const orderColumns = (order: TokenOrder) =>
  order === 'token_id' ? ['n.token_id', 'n.height', 'n.id'] : ['n.height', 'n.token_id', 'n.id'];

/**
 * A page of live tokens. `scope` is the SQL condition on `n` that picks the owner or collection;
 * `total` counts the whole list from counters (or, with a token id filter, the few matching rows).
 */
async function readTokens(
  db: Db,
  request: PageRequest<TokenCursor>,
  filter: TokenFilter,
  build: (
    params: ReturnType<typeof createParams>,
    collectionId: string | undefined,
  ) => { scope: string; total: string },
): Promise<Page<TokenRow, TokenCursor>> {
  const params = createParams();
  const dir = direction(request);
  const columns = orderColumns(filter.orderBy);
  const cursor = request.after;
  const cursorValues =
    cursor &&
    (filter.orderBy === 'token_id'
      ? [cursor.tokenId, cursor.height, cursor.id]
      : [cursor.height, cursor.tokenId, cursor.id]);
  const collectionId =
    filter.collection && `(SELECT id FROM nft_collection WHERE addr = ${params.add(filter.collection)})`;
  const { scope, total } = build(params, collectionId);
  let where = scope;
  if (collectionId) where += ` AND n.collection_id = ${collectionId}`;
  let totalSql = total;
  if (filter.tokenId !== undefined) {
    where += ` AND n.token_id = ${params.add(filter.tokenId)}`;
    // At most one token per collection has the id: counting them is bounded.
    totalSql = `SELECT count(*) FROM nft n WHERE ${where}`;
  }
  const keys = `SELECT n.id FROM nft n WHERE ${where} AND ${afterTuple(columns, cursorValues, request, params)}
    ORDER BY ${columns.map((c) => `${c} ${dir}`).join(', ')} ${limitClause(request, params)}`;
  const outer = columns.map((c) => `${c.replace('n.', 'p.')} ${dir}`).join(', ');
  const rows = await db.query(
    pageStatement(request.countTotal ? totalSql : null, withDetails(keys), outer),
    params.values,
  );
  return toPage(
    rows,
    request,
    (r) => r.id !== null,
    tokenRow,
    (r) => ({
      tokenId: r.token_id as string,
      height: Number(r.height),
      id: Number(r.id),
    }),
  );
}

/** Live NFTs an account owns. */
export function tokensByAccount(
  db: Db,
  account: Uint8Array,
  filter: TokenFilter,
  request: PageRequest<TokenCursor>,
): Promise<Page<TokenRow, TokenCursor>> {
  return readTokens(db, request, filter, (params, collectionId) => {
    const id = `(SELECT id FROM account WHERE address = ${params.add(account)})`;
    return {
      scope: `n.owner_id = ${id}`,
      total: collectionId
        ? `SELECT nfts FROM nft_holding WHERE owner_id = ${id} AND collection_id = ${collectionId}`
        : `SELECT nfts FROM account_stat WHERE account_id = ${id}`,
    };
  });
}

/** Live NFTs of a collection. */
export function tokensByCollection(
  db: Db,
  collection: Uint8Array,
  filter: Omit<TokenFilter, 'collection'>,
  request: PageRequest<TokenCursor>,
): Promise<Page<TokenRow, TokenCursor>> {
  return readTokens(db, request, { ...filter, collection }, (_params, collectionId) => ({
    scope: 'true',
    total: `SELECT nft_count FROM nft_collection WHERE id = ${collectionId}`,
  }));
}
