import type { Db } from '../db.js';
import { packedKeys } from './packed-keys.js';
import type { Page, PageRequest } from './page.js';
import type { RecordCache } from './record-cache.js';
import {
  msgTypeIds,
  type RecordPageSql,
  type RecordRow,
  readRecordPage,
  recordByHash,
  type SequenceCursor,
  type SequenceQuery,
} from './sequence-page.js';

/** A Cosmos tx as the API serves it: the record the indexer wrote, as its stored JSON text. */
export type TxRow = RecordRow;

export interface TxFilter {
  /** Msg type names without the leading `/`; a tx matches if it has any of them. */
  msgTypes?: string[];
}

/** A page of Cosmos tx records; `cache` keeps records between pages. */
export const readTxPage = (
  db: Db,
  request: PageRequest<SequenceCursor>,
  build: RecordPageSql,
  cache: RecordCache | undefined,
): Promise<Page<TxRow, SequenceCursor>> => readRecordPage(db, 'tx', request, build, cache);

/** Msg sets holding any of the types: a tx has exactly one set, so the sets partition the txs. */
const matchingSets = (q: SequenceQuery, names: string[]) => `m.type_ids && ${msgTypeIds(q, names)}`;

export function listTxs(
  db: Db,
  filter: TxFilter,
  request: PageRequest<SequenceCursor>,
  cache?: RecordCache,
): Promise<Page<TxRow, SequenceCursor>> {
  return readTxPage(
    db,
    request,
    (q) => {
      const names = filter.msgTypes;
      if (!names) {
        return {
          keys: `SELECT t.sequence FROM tx t WHERE ${q.afterCursor('t.sequence')} ORDER BY t.sequence ${q.dir} ${q.limit}`,
          total: `SELECT n FROM counter WHERE name = 'tx'`,
        };
      }
      const sets = matchingSets(q, names);
      return {
        // One index range per matching msg set, merged.
        keys: `SELECT s.sequence FROM msg_set m CROSS JOIN LATERAL (
            SELECT x.sequence FROM tx x WHERE x.msg_set_id = m.id AND ${q.afterCursor('x.sequence')}
            ORDER BY x.sequence ${q.dir} LIMIT ${q.branchLimit()}) s
          WHERE ${sets} ORDER BY s.sequence ${q.dir} ${q.limit}`,
        total: `SELECT sum(m.txs) FROM msg_set m WHERE ${sets}`,
      };
    },
    cache,
  );
}

export interface AccountTxFilter extends TxFilter {
  account: Uint8Array;
  /** Only txs the account signed (first signer). */
  signer: boolean;
}

export function txsByAccount(
  db: Db,
  filter: AccountTxFilter,
  request: PageRequest<SequenceCursor>,
  cache?: RecordCache,
): Promise<Page<TxRow, SequenceCursor>> {
  return readTxPage(
    db,
    request,
    (q) => {
      const id = q.accountId(filter.account);
      const names = filter.msgTypes;
      if (!names) {
        return {
          keys: packedKeys(q, filter.signer ? 'tx_signer_pack' : 'tx_account_pack', id),
          // Kept in the account's own row (per msg set for the filtered lists below).
          total: `SELECT ${filter.signer ? 'signed_txs' : 'txs'} FROM account_stat WHERE account_id = ${id}`,
        };
      }
      // The account's msg sets that match, then its txs (or the ones it signed) in those sets: the
      // packs are read until the page is full, so a rare match in a long list costs more than a common one.
      const sets = 'account_msg_set am JOIN msg_set m ON m.id = am.msg_set_id';
      const setsWhere = `am.account_id = ${id} AND ${matchingSets(q, names)}${filter.signer ? ' AND am.signed_txs > 0' : ''}`;
      const setIds = `(SELECT coalesce(array_agg(am.msg_set_id), '{}') FROM ${sets} WHERE ${setsWhere})::int4[]`;
      return {
        keys: packedKeys(
          q,
          filter.signer ? 'tx_signer_pack' : 'tx_account_pack',
          id,
          `e.msg_set_id = ANY(${setIds})`,
        ),
        total: `SELECT sum(${filter.signer ? 'am.signed_txs' : 'am.txs'}) FROM ${sets} WHERE ${setsWhere}`,
      };
    },
    cache,
  );
}

export function txsByHeight(
  db: Db,
  filter: TxFilter & { height: number },
  request: PageRequest<SequenceCursor>,
  cache?: RecordCache,
): Promise<Page<TxRow, SequenceCursor>> {
  return readTxPage(
    db,
    request,
    (q) => {
      const height = q.params.add(filter.height);
      const names = filter.msgTypes;
      // A block's txs are few: counting them at read time is bounded by the block size.
      const where = `t.height = ${height}${
        names ? ` AND t.msg_set_id IN (SELECT m.id FROM msg_set m WHERE ${matchingSets(q, names)})` : ''
      }`;
      return {
        keys: `SELECT t.sequence FROM tx t WHERE ${where} AND ${q.afterCursor('t.sequence')}
          ORDER BY t.sequence ${q.dir} ${q.limit}`,
        total: `SELECT count(*) FROM tx t WHERE ${where}`,
      };
    },
    cache,
  );
}

export const txByHash = (db: Db, hash: Uint8Array): Promise<TxRow | undefined> =>
  recordByHash(db, 'tx', hash);
