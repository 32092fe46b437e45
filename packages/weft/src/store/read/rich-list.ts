import type { Db } from '../db.js';
import { createParams, limitClause, type Page, type PageRequest, pageStatement, toPage } from './page.js';

export interface HolderRow {
  account: Uint8Array;
  /** Decimal text (balances exceed 2^53). */
  amount: string;
}

/** Holders are ordered by amount, ties by account id (ascending in the descending list). */
export interface HolderCursor {
  amount: string;
  accountId: number;
}

/** Positive balances of one denom (on EVM, the lowercase ERC20 address) by amount. */
export async function holdersOfDenom(
  db: Db,
  denom: string,
  request: PageRequest<HolderCursor>,
): Promise<Page<HolderRow, HolderCursor>> {
  const params = createParams();
  const d = params.add(denom);
  // The index is (denom_id, amount DESC, account_id): descending pages read it forwards.
  const [amountDir, idDir, less, more] = request.descending
    ? ['DESC', 'ASC', '<', '>']
    : ['ASC', 'DESC', '>', '<'];
  let cursor = 'true';
  if (request.after) {
    const amount = params.add(request.after.amount);
    const id = params.add(request.after.accountId);
    cursor = `r.amount ${less}= ${amount}::numeric AND (r.amount ${less} ${amount}::numeric OR r.account_id ${more} ${id})`;
  }
  const page = `SELECT r.account_id, r.amount, a.address FROM (
      SELECT r.account_id, r.amount FROM rich_list r
      WHERE r.denom_id = (SELECT id FROM denom WHERE name = ${d}) AND ${cursor}
      ORDER BY r.amount ${amountDir}, r.account_id ${idDir} ${limitClause(request, params)}
    ) r JOIN account a ON a.id = r.account_id`;
  const total = request.countTotal ? `SELECT holders FROM denom WHERE name = ${d}` : null;
  const rows = await db.query(
    pageStatement(total, page, `p.amount ${amountDir}, p.account_id ${idDir}`),
    params.values,
  );
  return toPage(
    rows,
    request,
    (r) => r.account_id !== null,
    (r) => ({ account: r.address as Uint8Array, amount: String(r.amount) }),
    (r) => ({ amount: String(r.amount), accountId: Number(r.account_id) }),
  );
}
