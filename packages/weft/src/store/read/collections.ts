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

export interface CollectionRow {
  id: number;
  addr: Uint8Array;
  name: string;
  originName: string;
  /** Creator account, when known. */
  creator: Uint8Array | null;
  /** Live (not burned) NFTs. */
  nftCount: number;
  height: number;
  timestamp: string;
}

/** Collections are ordered by creation height, then id. */
export interface CollectionCursor {
  height: number;
  id: number;
}

const collectionRow = (row: Row): CollectionRow => ({
  id: Number(row.id),
  addr: row.addr as Uint8Array,
  name: row.name as string,
  originName: row.origin_name as string,
  creator: (row.creator as Uint8Array | null) ?? null,
  nftCount: Number(row.nft_count),
  height: Number(row.height),
  timestamp: row.timestamp as string,
});

const COLUMNS = `c.id, c.addr, c.name, c.origin_name, c.nft_count, c.height, c.timestamp, a.address AS creator`;
const withCreator = (keys: string) =>
  `SELECT ${COLUMNS} FROM (${keys}) q JOIN nft_collection c ON c.id = q.id LEFT JOIN account a ON a.id = c.creator_id`;

async function readCollections(
  db: Db,
  request: PageRequest<CollectionCursor>,
  build: (q: {
    params: ReturnType<typeof createParams>;
    after(height: string, id: string): string;
    dir: string;
    limit: string;
  }) => {
    keys: string;
    total: string;
  },
): Promise<Page<CollectionRow, CollectionCursor>> {
  const params = createParams();
  const dir = direction(request);
  const cursor = request.after;
  const limit = limitClause(request, params);
  const { keys, total } = build({
    params,
    dir,
    limit,
    after: (height, id) => afterTuple([height, id], cursor && [cursor.height, cursor.id], request, params),
  });
  const rows = await db.query(
    pageStatement(request.countTotal ? total : null, withCreator(keys), `p.height ${dir}, p.id ${dir}`),
    params.values,
  );
  return toPage(
    rows,
    request,
    (r) => r.id !== null,
    collectionRow,
    (r) => ({ height: Number(r.height), id: Number(r.id) }),
  );
}

export function listCollections(
  db: Db,
  request: PageRequest<CollectionCursor>,
): Promise<Page<CollectionRow, CollectionCursor>> {
  return readCollections(db, request, (q) => ({
    keys: `SELECT c.id FROM nft_collection c WHERE ${q.after('c.height', 'c.id')}
      ORDER BY c.height ${q.dir}, c.id ${q.dir} ${q.limit}`,
    total: `SELECT n FROM counter WHERE name = 'collection'`,
  }));
}

/** Collections in which the account currently owns at least one NFT. */
export function collectionsByAccount(
  db: Db,
  account: Uint8Array,
  request: PageRequest<CollectionCursor>,
): Promise<Page<CollectionRow, CollectionCursor>> {
  return readCollections(db, request, (q) => {
    const id = `(SELECT id FROM account WHERE address = ${q.params.add(account)})`;
    return {
      keys: `SELECT h.collection_id AS id FROM nft_holding h WHERE h.owner_id = ${id}
        AND ${q.after('h.collection_height', 'h.collection_id')}
        ORDER BY h.collection_height ${q.dir}, h.collection_id ${q.dir} ${q.limit}`,
      total: `SELECT collections FROM account_stat WHERE account_id = ${id}`,
    };
  });
}

/**
 * Collections whose name or origin name contains `key` (both in the store's search form, see
 * `collectionNameKey`). Collections are few, so the match scans them.
 */
export function collectionsByName(
  db: Db,
  key: string,
  request: PageRequest<CollectionCursor>,
): Promise<Page<CollectionRow, CollectionCursor>> {
  return readCollections(db, request, (q) => {
    const k = q.params.add(key);
    const match = `(strpos(c.name_key, ${k}) > 0 OR strpos(c.origin_key, ${k}) > 0)`;
    return {
      keys: `SELECT c.id FROM nft_collection c WHERE ${match} AND ${q.after('c.height', 'c.id')}
        ORDER BY c.height ${q.dir}, c.id ${q.dir} ${q.limit}`,
      total: `SELECT count(*) FROM nft_collection c WHERE ${match}`,
    };
  });
}

export async function collectionByAddress(db: Db, addr: Uint8Array): Promise<CollectionRow | undefined> {
  const [row] = await db.query(withCreator('SELECT id FROM nft_collection WHERE addr = $1'), [addr]);
  return row && collectionRow(row);
}
