import type { Db } from '../db.js';
import { type RecordJson, recordJson } from '../record-codec.js';
import {
  afterColumn,
  aggregatePageStatement,
  branchLimit,
  createParams,
  cutPage,
  direction,
  limitClause,
  type Page,
  type PageRequest,
  pageStatement,
  type Row,
  toPage,
} from './page.js';
import { readRecordBatch, readSequenceBatch, recordBatchSql, sequenceBatchSql } from './record-batch.js';
import type { RecordCache, RecordTable } from './record-cache.js';

/** The tx families (cosmos, EVM, internal) are paged by their global sequence. */
export interface SequenceCursor {
  sequence: number;
}

export interface SequenceQuery {
  params: ReturnType<typeof createParams>;
  /** `ASC` or `DESC`. */
  dir: string;
  /** Keeps rows after the cursor: `column < $n`, or `true`. */
  afterCursor(column: string): string;
  /** The cursor's sequence as a placeholder, or null on a first page. */
  cursor(): string | null;
  /** `OFFSET … LIMIT …` of the whole page. */
  limit: string;
  /** Placeholder of the row count each branch of a merged scan must yield. */
  branchLimit(): string;
  /**
   * The account id of the page's account (null when unknown), looked up once per statement however
   * often the page and its total refer to it.
   */
  accountId(address: Uint8Array): string;
}

/**
 * Runs a page over one tx family. `build` returns the SQL that selects the page's rows (ordered,
 * limited, with a `sequence` column) and the SQL of its total.
 */
export async function readSequencePage<R>(
  db: Db,
  request: PageRequest<SequenceCursor>,
  build: (q: SequenceQuery) => { page: string; total: string },
  map: (row: Row) => R,
): Promise<Page<R, SequenceCursor>> {
  const rows = await querySequencePage(db, request, build, (total, page, dir) =>
    pageStatement(total, page, `p.sequence ${dir}`),
  );
  return toPage(
    rows,
    request,
    (r) => r.sequence !== null,
    map,
    (r) => ({ sequence: Number(r.sequence) }),
  );
}

/** The statement `assemble` makes of a page's SQL, its total's (null when not asked) and its order. */
async function querySequencePage(
  db: Db,
  request: PageRequest<SequenceCursor>,
  build: (q: SequenceQuery) => { page: string; total: string },
  assemble: (total: string | null, page: string, dir: string) => string,
): Promise<Row[]> {
  const params = createParams();
  let account: { address: Uint8Array; param: string } | undefined;
  const query: SequenceQuery = {
    params,
    dir: direction(request),
    afterCursor: (column) => afterColumn(column, request.after?.sequence, request, params),
    cursor: () => (request.after === undefined ? null : params.add(request.after.sequence)),
    limit: limitClause(request, params),
    branchLimit: () => params.add(branchLimit(request)),
    accountId(address) {
      if (account && !Buffer.from(account.address).equals(Buffer.from(address)))
        throw new Error('a sequence page reads one account');
      account ??= { address, param: params.add(address) };
      return '(SELECT id FROM page_account)';
    },
  };
  const { page, total } = build(query);
  const statement = assemble(request.countTotal ? total : null, page, query.dir);
  return db.query(
    account
      ? `WITH page_account AS MATERIALIZED (SELECT id FROM account WHERE address = ${account.param}) ${statement}`
      : statement,
    params.values,
  );
}

/** Msg type names → their ids, as an `int4[]` SQL expression (empty when none is known). */
export function msgTypeIds(q: SequenceQuery, names: string[]): string {
  return `(SELECT coalesce(array_agg(id), '{}') FROM msg_type WHERE name = ANY(${q.params.add(names)}::text[]))`;
}

/**
 * A stored tx or EVM tx record as its JSON text (key order as the indexer wrote it), in UTF-8 bytes or
 * inflated where it is written: an answer is assembled from them as bytes, with no string built or
 * encoded per record.
 */
export interface RecordRow {
  sequence: number;
  json: RecordJson;
}

/** The SQL of a record page: its keys (a `sequence` column, ordered and limited) and its total. */
export type RecordPageSql = (q: SequenceQuery) => { keys: string; total: string };

/**
 * Runs a page of stored records. With a record cache that held most of the last pages' records, the
 * statement reads the keys and the total only, and the records the cache lacks are read by primary key
 * in a second statement (none when the cache has them all) and offered to it (`RecordCache.offer`: kept
 * when read again within its reach); records another page is reading already are awaited, not read
 * again (`RecordCache.load`). Without a cache, or while it lacks most records (pages not polled again,
 * or more of them than it holds), the records are joined to the keys in the same statement: a second
 * round trip per page cost more than the records the cache would have spared.
 */
export async function readRecordPage(
  db: Db,
  table: RecordTable,
  request: PageRequest<SequenceCursor>,
  build: RecordPageSql,
  cache?: RecordCache,
): Promise<Page<RecordRow, SequenceCursor>> {
  if (!cache || cache.mostlyMissing) return readJoinedRecordPage(db, table, request, build, cache);
  const page = await readBatchedPage(db, request, build, {
    column: (keys, dir) => sequenceBatchSql(`FROM (${keys}) t`, `t.sequence ${dir}`),
    read: readSequenceBatch,
    sequenceOf: (sequence) => sequence,
  });
  const found = await cache.load(table, page.rows, async (missing) => {
    const [row] = await db.query<{ records: string | null }>(
      `SELECT ${recordBatchSql(`FROM ${table} t WHERE t.sequence = ANY($1::int8[])`, 't.sequence')} AS records`,
      [missing],
    );
    return new Map(readRecordBatch(row?.records ?? null).map((r) => [r.sequence, r.stored]));
  });
  return {
    ...page,
    rows: page.rows.map((sequence) => {
      const json = found.get(sequence);
      // Records are never deleted: a key without its record is a store that changed under the read.
      if (json === undefined) throw new Error(`${table} record ${sequence} is missing`);
      return { sequence, json };
    }),
  };
}

/**
 * Keys, total and records in one statement, the records as one batch (record-batch.ts); a record the
 * cache holds is taken from it, not decoded.
 */
async function readJoinedRecordPage(
  db: Db,
  table: RecordTable,
  request: PageRequest<SequenceCursor>,
  build: RecordPageSql,
  cache: RecordCache | undefined,
): Promise<Page<RecordRow, SequenceCursor>> {
  const page = await readBatchedPage(db, request, build, {
    column: (keys, dir) =>
      recordBatchSql(`FROM (${keys}) q JOIN ${table} t ON t.sequence = q.sequence`, `t.sequence ${dir}`),
    read: readRecordBatch,
    sequenceOf: (record) => record.sequence,
  });
  let held = 0;
  const rows = page.rows.map(({ sequence, stored }): RecordRow => {
    const kept = cache?.get(table, sequence);
    if (kept !== undefined) {
      held += 1;
      return { sequence, json: kept };
    }
    cache?.offer(table, sequence, stored);
    return { sequence, json: recordJson(stored) };
  });
  cache?.noteFound(held, rows.length);
  return { ...page, rows };
}

/**
 * A page whose rows the statement sends as one value (record-batch.ts): `column` aggregates the keys'
 * SQL in the page's direction, `read` reads the value back (null when the page is empty), look-ahead
 * item included, and `sequenceOf` gives an item's cursor.
 */
async function readBatchedPage<T>(
  db: Db,
  request: PageRequest<SequenceCursor>,
  build: RecordPageSql,
  batch: {
    column: (keys: string, dir: string) => string;
    read: (value: string | null) => T[];
    sequenceOf: (item: T) => number;
  },
): Promise<Page<T, SequenceCursor>> {
  const [row] = await querySequencePage(
    db,
    request,
    (q) => {
      const { keys, total } = build(q);
      return { page: keys, total };
    },
    (total, keys, dir) => aggregatePageStatement(total, batch.column(keys, dir)),
  );
  return cutPage(
    row,
    batch.read((row?.page_rows as string | null | undefined) ?? null),
    request,
    (item) => item,
    (item) => ({ sequence: batch.sequenceOf(item) }),
  );
}

/** The record with this hash (the newest, should a hash repeat), or undefined. */
export async function recordByHash(
  db: Db,
  table: RecordTable,
  hash: Uint8Array,
): Promise<RecordRow | undefined> {
  const [row] = await db.query<{ sequence: string; record: Uint8Array }>(
    `SELECT sequence, record FROM ${table} WHERE hash = $1 ORDER BY sequence DESC LIMIT 1`,
    [hash],
  );
  return row && { sequence: Number(row.sequence), json: recordJson(row.record) };
}
