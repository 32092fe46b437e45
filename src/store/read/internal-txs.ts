import type { Db } from '../db.js';
import type { Page, PageRequest, Row } from './page.js';
import { readSequencePage, type SequenceCursor } from './sequence-page.js';

/** One call frame of an EVM tx (callTracer, flattened depth first). */
export interface InternalTxRow {
  sequence: number;
  height: number;
  /** Ethereum hash of the tx the frame belongs to. */
  txHash: Uint8Array;
  index: number;
  parentIndex: number;
  type: string;
  from: Uint8Array | null;
  to: Uint8Array | null;
  input: Uint8Array;
  output: Uint8Array;
  value: Uint8Array;
  gas: Uint8Array;
  gasUsed: Uint8Array;
}

const internalTxRow = (row: Row): InternalTxRow => ({
  sequence: Number(row.sequence),
  height: Number(row.height),
  txHash: row.tx_hash as Uint8Array,
  index: Number(row.index),
  parentIndex: Number(row.parent_index),
  type: row.type as string,
  from: (row.from_address as Uint8Array | null) ?? null,
  to: (row.to_address as Uint8Array | null) ?? null,
  input: row.input as Uint8Array,
  output: row.output as Uint8Array,
  value: row.value as Uint8Array,
  gas: row.gas as Uint8Array,
  gasUsed: row.gas_used as Uint8Array,
});

/** The frames of the page's sequences, with their tx hash and addresses. */
const framesOf = (
  keys: string,
) => `SELECT i.sequence, i.height, t.hash AS tx_hash, i.index, i.parent_index, i.type,
    fa.address AS from_address, ta.address AS to_address, i.input, i.output, i.value, i.gas, i.gas_used
  FROM (${keys}) q JOIN evm_internal_tx i ON i.sequence = q.sequence
  JOIN evm_tx t ON t.sequence = i.evm_tx_sequence
  LEFT JOIN account fa ON fa.id = i.from_id LEFT JOIN account ta ON ta.id = i.to_id`;

export function listInternalTxs(
  db: Db,
  request: PageRequest<SequenceCursor>,
): Promise<Page<InternalTxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => ({
      page: framesOf(`SELECT i.sequence FROM evm_internal_tx i WHERE ${q.afterCursor('i.sequence')}
        ORDER BY i.sequence ${q.dir} ${q.limit}`),
      total: `SELECT n FROM counter WHERE name = 'internal_tx'`,
    }),
    internalTxRow,
  );
}

/** Frames whose `from` or `to` is the account. */
export function internalTxsByAccount(
  db: Db,
  account: Uint8Array,
  request: PageRequest<SequenceCursor>,
): Promise<Page<InternalTxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => {
      const id = q.accountId(account);
      return {
        page: framesOf(`SELECT e.sequence FROM evm_internal_tx_account e WHERE e.account_id = ${id}
          AND ${q.afterCursor('e.sequence')} ORDER BY e.sequence ${q.dir} ${q.limit}`),
        total: `SELECT internal_txs FROM account_stat WHERE account_id = ${id}`,
      };
    },
    internalTxRow,
  );
}

/** Frames whose `column` holds `value`, with their total counted (a block's or a tx's frames are few). */
function framesWhere(
  db: Db,
  column: 'height' | 'evm_tx_sequence',
  value: number,
  request: PageRequest<SequenceCursor>,
): Promise<Page<InternalTxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => {
      const where = `i.${column} = ${q.params.add(value)}`;
      return {
        page: framesOf(`SELECT i.sequence FROM evm_internal_tx i WHERE ${where} AND ${q.afterCursor('i.sequence')}
          ORDER BY i.sequence ${q.dir} ${q.limit}`),
        total: `SELECT count(*) FROM evm_internal_tx i WHERE ${where}`,
      };
    },
    internalTxRow,
  );
}

export const internalTxsByHeight = (db: Db, height: number, request: PageRequest<SequenceCursor>) =>
  framesWhere(db, 'height', height, request);

/** The EVM tx's sequence, or undefined when no EVM tx has that hash. */
export async function evmTxSequence(db: Db, hash: Uint8Array): Promise<number | undefined> {
  const [row] = await db.query<{ sequence: string }>(
    'SELECT sequence FROM evm_tx WHERE hash = $1 ORDER BY sequence DESC LIMIT 1',
    [hash],
  );
  return row ? Number(row.sequence) : undefined;
}

/** The frames of one EVM tx (by its sequence). */
export const internalTxsOfTx = (db: Db, evmTxSequence: number, request: PageRequest<SequenceCursor>) =>
  framesWhere(db, 'evm_tx_sequence', evmTxSequence, request);
