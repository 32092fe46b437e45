import type { Db } from '../db.js';
import {
  afterColumn,
  createParams,
  direction,
  limitClause,
  type Page,
  type PageRequest,
  pageStatement,
  toPage,
} from './page.js';

export interface BlockRow {
  height: number;
  hash: Uint8Array;
  /** ISO-8601 UTC with up to microseconds. */
  timestamp: string;
  /** ms since the previous block. */
  blockTime: string;
  proposer: string;
  gasUsed: string;
  gasWanted: string;
  txCount: number;
  totalFee: Array<{ denom: string; amount: string }>;
}

export interface HeightCursor {
  height: number;
}

const COLUMNS =
  'b.height, b.hash, b.timestamp, b.block_time, b.proposer, b.gas_used, b.gas_wanted, b.tx_count, b.total_fee';

function blockRow(row: Record<string, unknown>): BlockRow {
  return {
    height: Number(row.height),
    hash: row.hash as Uint8Array,
    timestamp: row.timestamp as string,
    blockTime: String(row.block_time),
    proposer: row.proposer as string,
    gasUsed: String(row.gas_used),
    gasWanted: String(row.gas_wanted),
    txCount: Number(row.tx_count),
    totalFee: (row.total_fee as BlockRow['totalFee']) ?? [],
  };
}

/** Indexed blocks by height; the total is the number of indexed blocks. */
export async function listBlocks(
  db: Db,
  request: PageRequest<HeightCursor>,
): Promise<Page<BlockRow, HeightCursor>> {
  const params = createParams();
  const dir = direction(request);
  const page = `SELECT ${COLUMNS} FROM block b WHERE ${afterColumn('b.height', request.after?.height, request, params)}
    ORDER BY b.height ${dir} ${limitClause(request, params)}`;
  const total = request.countTotal ? `SELECT n FROM counter WHERE name = 'block'` : null;
  const rows = await db.query(pageStatement(total, page, `p.height ${dir}`), params.values);
  return toPage(
    rows,
    request,
    (r) => r.height !== null,
    blockRow,
    (r) => ({ height: Number(r.height) }),
  );
}

export async function blockByHeight(db: Db, height: number): Promise<BlockRow | undefined> {
  const [row] = await db.query(`SELECT ${COLUMNS} FROM block b WHERE b.height = $1`, [height]);
  return row && blockRow(row);
}

/** Mean seconds between the latest (up to) 100 blocks; 0 with fewer than two. */
export async function averageBlockTime(db: Db): Promise<number> {
  const [row] = await db.query<{ span: string | number | null; n: string }>(
    `SELECT extract(epoch FROM max(timestamp) - min(timestamp)) AS span, count(*) AS n
     FROM (SELECT timestamp FROM block ORDER BY height DESC LIMIT 100) latest`,
  );
  const n = Number(row?.n ?? 0);
  if (n < 2 || row?.span === null || row?.span === undefined) return 0;
  return Number(row.span) / (n - 1);
}
