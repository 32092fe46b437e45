import type { Db } from './db.js';

/**
 * Account edges (which txs, EVM txs or internal txs name an account, which txs and EVM txs it signed)
 * are stored packed: a row per account and run of up to `PACK_SIZE` sequences, ascending, keyed by the
 * run's first sequence (migrations/0004_packs.sql). An edge as a row of its own cost about 50 bytes of row header,
 * item pointer and index entry for 8 bytes of sequence.
 *
 * A batch's edges go to the account's last pack until it holds `PACK_SIZE`, then to new packs of
 * `PACK_SIZE`: the packs depend on the edges only, never on how the blocks were batched, so two stores
 * of the same chain hold the same rows (`digest`). Sequences only grow (blocks and internal txs are
 * written in height order), so appending keeps every pack sorted and the packs of an account disjoint
 * and in order.
 *
 * Each pack names its format in its `format` column (migrations/0005_edge_pack_format.sql). Format 1 is
 * this layout: sequences ascending in `int8[]` (with `int4[]` msg sets beside them), `PACK_SIZE` to a
 * full pack, keyed by the first. The packs are read in SQL (read/packed-keys.ts, the views of 0004),
 * which reads format 1 only; the table's CHECK keeps any other format out of a store whose SQL would
 * misread it, so a later format comes with the migration that admits it and the reads that take it.
 */
export const PACK_SIZE = 64;

/** The format of the packs written here, the only one a store holds (the CHECK of 0005). */
export const EDGE_PACK_FORMAT = 1;

export type PackTable =
  | 'tx_account_pack'
  | 'tx_signer_pack'
  | 'evm_tx_account_pack'
  | 'evm_tx_signer_pack'
  | 'evm_internal_tx_account_pack';

/** The packs of Cosmos txs keep each tx's msg set beside its sequence (the `msgs` filter). */
export const hasMsgSets = (table: PackTable) => table === 'tx_account_pack' || table === 'tx_signer_pack';

export interface Edges {
  account: number[];
  /** Ascending per account: a batch's edges come in sequence order. */
  sequence: number[];
  /** Packs of Cosmos txs only (`hasMsgSets`): each edge's msg set, kept beside its sequence. */
  set?: number[];
}

/** Appends a batch's edges to their accounts' packs: one statement whatever the batch holds. */
export async function appendEdges(db: Db, table: PackTable, edges: Edges): Promise<void> {
  if (edges.account.length === 0) return;
  const sets = hasMsgSets(table);
  if (sets !== (edges.set !== undefined)) throw new Error(`${table}: msg sets go with Cosmos txs only`);
  const params: unknown[] = [edges.account, edges.sequence, ...(sets ? [edges.set] : [])];
  const set = (sql: string) => (sets ? sql : '');
  await db.query(
    `WITH e AS (
       SELECT * FROM ROWS FROM (unnest($1::int8[]), unnest($2::int8[])${set(', unnest($3::int4[])')})
         AS e(account_id, sequence${set(', msg_set_id')})
     ), tail AS (
       SELECT a.account_id, p.first_sequence, cardinality(p.sequences) AS n
       FROM (SELECT DISTINCT account_id FROM e) a
       CROSS JOIN LATERAL (
         SELECT x.first_sequence, x.sequences FROM ${table} x
         WHERE x.account_id = a.account_id ORDER BY x.first_sequence DESC LIMIT 1
       ) p
       WHERE cardinality(p.sequences) < ${PACK_SIZE}
     ), placed AS (
       SELECT e.*, t.first_sequence AS tail,
         (coalesce(t.n, 0) + row_number() OVER (PARTITION BY e.account_id ORDER BY e.sequence) - 1) / ${PACK_SIZE} AS pack
       FROM e LEFT JOIN tail t ON t.account_id = e.account_id
     ), packs AS (
       SELECT account_id, CASE WHEN pack = 0 THEN tail END AS tail, min(sequence) AS first_sequence,
         array_agg(sequence ORDER BY sequence) AS sequences${set(', array_agg(msg_set_id ORDER BY sequence) AS msg_set_ids')}
       FROM placed GROUP BY account_id, pack, tail
     ), appended AS (
       UPDATE ${table} p SET sequences = p.sequences || k.sequences${set(', msg_set_ids = p.msg_set_ids || k.msg_set_ids')}
       FROM packs k WHERE k.tail IS NOT NULL AND p.account_id = k.account_id AND p.first_sequence = k.tail
     )
     INSERT INTO ${table} (account_id, first_sequence, sequences${set(', msg_set_ids')}, format)
     SELECT account_id, first_sequence, sequences${set(', msg_set_ids')}, ${EDGE_PACK_FORMAT} FROM packs WHERE tail IS NULL`,
    params,
  );
}
