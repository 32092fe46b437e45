/**
 * Keyset pages over the store. Every list is ordered by a unique key (a sequence, a height, or a
 * tuple ending in an id); a page starts after the cursor (if any), skips `offset` rows, and reads
 * one row more than `limit` to learn whether another page exists. The total comes from the
 * write-time counters in the same statement, so a page is one round trip.
 */

export interface PageRequest<C> {
  /** Position of the last row of the previous page; the page starts right after it. */
  after?: C;
  /** Rows skipped after the cursor (or from the start). */
  offset: number;
  limit: number;
  descending: boolean;
  /** Whether to read the total (it is cheap, but callers may opt out). */
  countTotal: boolean;
}

export interface Page<R, C> {
  rows: R[];
  /** Exact row count of the whole list (decimal text), or null when not asked for. */
  total: string | null;
  /** Cursor of the last row when another page exists. */
  next: C | null;
  /**
   * The indexed block height the page's statement saw (the same snapshot as its rows), when the page
   * was read by one: what an answer built from it can be said to be as of.
   */
  height?: number;
}

export type Row = Record<string, unknown>;

const totalColumn = (totalSql: string | null) =>
  totalSql === null ? 'NULL::int8' : `coalesce((${totalSql}), 0)::int8`;
const heightColumn = `coalesce((SELECT height FROM progress WHERE name = 'block'), 0)::int8`;

/**
 * `SELECT total, height, page.*`: the page is LEFT JOINed to a one-row total, so an empty page still
 * answers its total, and the indexed height, read in the statement's own snapshot. `pageSql` must
 * order and limit itself; `order` re-states the order outside.
 */
export function pageStatement(totalSql: string | null, pageSql: string, order: string): string {
  return `SELECT ${totalColumn(totalSql)} AS page_total, ${heightColumn} AS page_height, p.* FROM (SELECT 1) one LEFT JOIN LATERAL (${pageSql}) p ON true ORDER BY ${order}`;
}

/** `SELECT total, height, column`: one row, the page itself aggregated in `columnSql` (`page_rows`). */
export function aggregatePageStatement(totalSql: string | null, columnSql: string): string {
  return `SELECT ${totalColumn(totalSql)} AS page_total, ${heightColumn} AS page_height, ${columnSql} AS page_rows`;
}

/** Splits the look-ahead row off and drops the null row an empty page leaves behind. */
export function toPage<R, C>(
  rows: Row[],
  request: PageRequest<C>,
  present: (row: Row) => boolean,
  map: (row: Row) => R,
  cursorOf: (row: Row) => C,
): Page<R, C> {
  return cutPage(rows[0], rows.filter(present), request, map, cursorOf);
}

/**
 * A page of `items` (the look-ahead one included, when there is one), its total and height read from
 * `head`, a row of the statement.
 */
export function cutPage<T, R, C>(
  head: Row | undefined,
  items: T[],
  request: PageRequest<C>,
  map: (item: T) => R,
  cursorOf: (item: T) => C,
): Page<R, C> {
  const total = request.countTotal && head ? String(head.page_total) : null;
  const height = head?.page_height;
  const more = items.length > request.limit;
  const kept = more ? items.slice(0, request.limit) : items;
  return {
    rows: kept.map(map),
    total,
    next: more ? cursorOf(kept[kept.length - 1]!) : null,
    ...(height === undefined || height === null ? {} : { height: Number(height) }),
  };
}

/** Binds parameters in order and hands out their `$n` placeholders. */
export function createParams(): { add(value: unknown): string; values: unknown[] } {
  const values: unknown[] = [];
  return {
    values,
    add(value) {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

/** `OFFSET o LIMIT n+1`: the extra row tells whether another page follows. */
export function limitClause(request: PageRequest<unknown>, params: ReturnType<typeof createParams>): string {
  return `OFFSET ${params.add(request.offset)} LIMIT ${params.add(request.limit + 1)}`;
}

/** Rows a per-branch scan must yield so the merged page can still skip `offset` and look ahead. */
export function branchLimit(request: PageRequest<unknown>): number {
  return request.offset + request.limit + 1;
}

export const direction = (request: PageRequest<unknown>) => (request.descending ? 'DESC' : 'ASC');
/** The comparison that keeps rows after the cursor in the page's order. */
export const after = (request: PageRequest<unknown>) => (request.descending ? '<' : '>');

/** A single-column cursor condition (`sequence < $1`), or `true` without a cursor. */
export function afterColumn(
  column: string,
  value: number | undefined,
  request: PageRequest<unknown>,
  params: ReturnType<typeof createParams>,
): string {
  return value === undefined ? 'true' : `${column} ${after(request)} ${params.add(value)}`;
}

/** A tuple cursor condition (`(height, id) < ($1, $2)`), or `true` without a cursor. */
export function afterTuple(
  columns: string[],
  values: unknown[] | undefined,
  request: PageRequest<unknown>,
  params: ReturnType<typeof createParams>,
): string {
  if (values === undefined) return 'true';
  return `(${columns.join(', ')}) ${after(request)} (${values.map((v) => params.add(v)).join(', ')})`;
}
