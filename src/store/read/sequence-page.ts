import type { Db } from '../db.js';
import {
  afterColumn,
  branchLimit,
  createParams,
  direction,
  limitClause,
  type Page,
  type PageRequest,
  pageStatement,
  type Row,
  toPage,
} from './page.js';

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
  /** `OFFSET … LIMIT …` of the whole page. */
  limit: string;
  /** Placeholder of the row count each branch of a merged scan must yield. */
  branchLimit(): string;
  /** Placeholder of the account id of an address (null when unknown). */
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
  const params = createParams();
  const query: SequenceQuery = {
    params,
    dir: direction(request),
    afterCursor: (column) => afterColumn(column, request.after?.sequence, request, params),
    limit: limitClause(request, params),
    branchLimit: () => params.add(branchLimit(request)),
    accountId: (address) => `(SELECT id FROM account WHERE address = ${params.add(address)})`,
  };
  const { page, total } = build(query);
  const rows = await db.query(
    pageStatement(request.countTotal ? total : null, page, `p.sequence ${query.dir}`),
    params.values,
  );
  return toPage(
    rows,
    request,
    (r) => r.sequence !== null,
    map,
    (r) => ({ sequence: Number(r.sequence) }),
  );
}

/** Msg type names → their ids, as an `int4[]` SQL expression (empty when none is known). */
export function msgTypeIds(q: SequenceQuery, names: string[]): string {
  return `(SELECT coalesce(array_agg(id), '{}') FROM msg_type WHERE name = ANY(${q.params.add(names)}::text[]))`;
}
