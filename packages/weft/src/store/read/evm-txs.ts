import type { Db } from '../db.js';
import { packedKeys } from './packed-keys.js';
import type { Page, PageRequest } from './page.js';
import type { RecordCache } from './record-cache.js';
import { type RecordRow, readRecordPage, recordByHash, type SequenceCursor } from './sequence-page.js';

/** An EVM tx as the API serves it: the receipt record the indexer wrote, as its stored JSON text. */
export type EvmTxRow = RecordRow;

export function listEvmTxs(
  db: Db,
  request: PageRequest<SequenceCursor>,
  cache?: RecordCache,
): Promise<Page<EvmTxRow, SequenceCursor>> {
  return readRecordPage(
    db,
    'evm_tx',
    request,
    (q) => ({
      keys: `SELECT t.sequence FROM evm_tx t WHERE ${q.afterCursor('t.sequence')} ORDER BY t.sequence ${q.dir} ${q.limit}`,
      total: `SELECT n FROM counter WHERE name = 'evm_tx'`,
    }),
    cache,
  );
}

/** EVM txs touching an account (from, to, created contract, log addresses and topics); `signer`: only `from`. */
export function evmTxsByAccount(
  db: Db,
  filter: { account: Uint8Array; signer: boolean },
  request: PageRequest<SequenceCursor>,
  cache?: RecordCache,
): Promise<Page<EvmTxRow, SequenceCursor>> {
  return readRecordPage(
    db,
    'evm_tx',
    request,
    (q) => {
      const id = q.accountId(filter.account);
      const keys = packedKeys(q, filter.signer ? 'evm_tx_signer_pack' : 'evm_tx_account_pack', id);
      return {
        keys,
        total: `SELECT ${filter.signer ? 'signed_evm_txs' : 'evm_txs'} FROM account_stat WHERE account_id = ${id}`,
      };
    },
    cache,
  );
}

export function evmTxsByHeight(
  db: Db,
  height: number,
  request: PageRequest<SequenceCursor>,
  cache?: RecordCache,
): Promise<Page<EvmTxRow, SequenceCursor>> {
  return readRecordPage(
    db,
    'evm_tx',
    request,
    (q) => {
      const h = q.params.add(height);
      return {
        keys: `SELECT t.sequence FROM evm_tx t WHERE t.height = ${h} AND ${q.afterCursor('t.sequence')}
          ORDER BY t.sequence ${q.dir} ${q.limit}`,
        total: `SELECT count(*) FROM evm_tx t WHERE t.height = ${h}`,
      };
    },
    cache,
  );
}

export const evmTxByHash = (db: Db, hash: Uint8Array): Promise<EvmTxRow | undefined> =>
  recordByHash(db, 'evm_tx', hash);
