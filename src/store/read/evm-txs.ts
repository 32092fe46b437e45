import type { Db } from '../db.js';
import type { Page, PageRequest, Row } from './page.js';
import { readSequencePage, type SequenceCursor } from './sequence-page.js';

/** An EVM tx as the API serves it: the receipt record the indexer wrote, as its stored JSON text. */
export interface EvmTxRow {
  sequence: number;
  json: string;
}

const evmTxRow = (row: Row): EvmTxRow => ({ sequence: Number(row.sequence), json: row.record as string });

const recordsOf = (keys: string) =>
  `SELECT t.sequence, t.record::text AS record FROM (${keys}) q JOIN evm_tx t ON t.sequence = q.sequence`;

export function listEvmTxs(
  db: Db,
  request: PageRequest<SequenceCursor>,
): Promise<Page<EvmTxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => ({
      page: `SELECT t.sequence, t.record::text AS record FROM evm_tx t WHERE ${q.afterCursor('t.sequence')} ORDER BY t.sequence ${q.dir} ${q.limit}`,
      total: `SELECT n FROM counter WHERE name = 'evm_tx'`,
    }),
    evmTxRow,
  );
}

/** EVM txs touching an account (from, to, created contract, log addresses and topics); `signer`: only `from`. */
export function evmTxsByAccount(
  db: Db,
  filter: { account: Uint8Array; signer: boolean },
  request: PageRequest<SequenceCursor>,
): Promise<Page<EvmTxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => {
      const id = q.accountId(filter.account);
      const keys = filter.signer
        ? `SELECT x.sequence FROM evm_tx x WHERE x.signer_id = ${id} AND ${q.afterCursor('x.sequence')}
           ORDER BY x.sequence ${q.dir} ${q.limit}`
        : `SELECT e.sequence FROM evm_tx_account e WHERE e.account_id = ${id} AND ${q.afterCursor('e.sequence')}
           ORDER BY e.sequence ${q.dir} ${q.limit}`;
      return {
        page: recordsOf(keys),
        total: `SELECT ${filter.signer ? 'signed_evm_txs' : 'evm_txs'} FROM account_stat WHERE account_id = ${id}`,
      };
    },
    evmTxRow,
  );
}

export function evmTxsByHeight(
  db: Db,
  height: number,
  request: PageRequest<SequenceCursor>,
): Promise<Page<EvmTxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => {
      const h = q.params.add(height);
      return {
        page: `SELECT t.sequence, t.record::text AS record FROM evm_tx t WHERE t.height = ${h} AND ${q.afterCursor('t.sequence')}
          ORDER BY t.sequence ${q.dir} ${q.limit}`,
        total: `SELECT count(*) FROM evm_tx t WHERE t.height = ${h}`,
      };
    },
    evmTxRow,
  );
}

export async function evmTxByHash(db: Db, hash: Uint8Array): Promise<EvmTxRow | undefined> {
  const [row] = await db.query(
    'SELECT sequence, record::text AS record FROM evm_tx WHERE hash = $1 ORDER BY sequence DESC LIMIT 1',
    [hash],
  );
  return row && evmTxRow(row);
}
