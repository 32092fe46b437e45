import { type CallFrame, decodeCalls } from '../call-codec.js';
import type { Db } from '../db.js';
import { frameKeys, packedKeys } from './packed-keys.js';
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

/**
 * Maps the rows of `framesOf`: each row's frame out of its tx's frames, decoded once per page however
 * many of its frames the page holds.
 */
function internalTxRows(): (row: Row) => InternalTxRow {
  const decoded = new Map<string, CallFrame[]>();
  return (row) => {
    const first = String(row.first_sequence);
    let frames = decoded.get(first);
    if (!frames) {
      frames = decodeCalls(row.frames as Uint8Array);
      decoded.set(first, frames);
    }
    const sequence = Number(row.sequence);
    const frame = frames[sequence - Number(first)];
    if (!frame) throw new Error(`internal tx ${sequence} is missing from its tx's frames`);
    return { sequence, height: Number(row.height), txHash: row.tx_hash as Uint8Array, ...frame };
  };
}

/** The page's sequences with their tx's frames (the last run starting at or before each) and tx hash. */
const framesOf = (keys: string) => `SELECT q.sequence, c.first_sequence, c.height, t.hash AS tx_hash, c.frames
  FROM (${keys}) q
  CROSS JOIN LATERAL (
    SELECT * FROM evm_internal_tx_pack c WHERE c.first_sequence <= q.sequence ORDER BY c.first_sequence DESC LIMIT 1
  ) c
  JOIN evm_tx t ON t.sequence = c.evm_tx_sequence`;

export function listInternalTxs(
  db: Db,
  request: PageRequest<SequenceCursor>,
): Promise<Page<InternalTxRow, SequenceCursor>> {
  return readSequencePage(
    db,
    request,
    (q) => ({
      page: framesOf(frameKeys(q, () => 'true')),
      total: `SELECT n FROM counter WHERE name = 'internal_tx'`,
    }),
    internalTxRows(),
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
        page: framesOf(packedKeys(q, 'evm_internal_tx_account_pack', id)),
        total: `SELECT internal_txs FROM account_stat WHERE account_id = ${id}`,
      };
    },
    internalTxRows(),
  );
}

/** Frames of the runs whose `column` holds `value`, with their total counted (a block's or a tx's frames are few). */
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
      const v = q.params.add(value);
      return {
        page: framesOf(frameKeys(q, (a) => `${a}.${column} = ${v}`)),
        total: `SELECT sum(c.frame_count) FROM evm_internal_tx_pack c WHERE c.${column} = ${v}`,
      };
    },
    internalTxRows(),
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
