import { hasMsgSets, PACK_SIZE, type PackTable } from '../edge-pack.js';
import type { SequenceQuery } from './sequence-page.js';

/**
 * Pages over packed rows: each row of `table` (keyed by its `first_sequence`) holds a run of
 * sequences that `unpack` lists as `e(sequence, …)` from the row `p`; the runs of the rows `where`
 * selects are disjoint and in the order of their first sequences. `where` is a condition on a row
 * alias (`k`, `p` or `x`).
 *
 * The rows' keys are taken from the index in the page's order, and each row is read by its key and
 * unpacked as its turn comes: (first sequence, sequence) is then the page's order, and the sort over it
 * stops once the page is full. `OFFSET 0` keeps the read by key a nested loop: planned as a merge join,
 * the rows were scanned from the account's newest down to the cursor's (784 of them on page 1,000 of a
 * long list). `bound` caps the rows taken (SQL of an int8: how many rows hold n = offset + limit + 1
 * sequences past the cursor at most; `ALL` when a filter on the unpacked sequences leaves no bound,
 * and then the planner may sort the keys, 16 bytes a row, though the rows are still read one by one).
 */
function packedPage(
  q: SequenceQuery,
  scan: {
    table: string;
    where: (alias: string) => string;
    unpack: string;
    bound: (n: string) => string;
    filter?: string;
  },
): string {
  const { table, where } = scan;
  const cursor = q.cursor();
  // A descending page needs the rows starting before the cursor; an ascending one, the row holding
  // the cursor (the last starting at or before it) and every later one.
  const rows =
    cursor === null
      ? 'true'
      : q.dir === 'DESC'
        ? `k.first_sequence < ${cursor}`
        : `k.first_sequence >= coalesce((SELECT max(x.first_sequence) FROM ${table} x
             WHERE ${where('x')} AND x.first_sequence <= ${cursor}), 0)`;
  const bound = scan.filter ? 'ALL' : scan.bound(`${q.branchLimit()}::int8`);
  return `SELECT e.sequence FROM (
      SELECT k.first_sequence FROM ${table} k WHERE ${where('k')} AND ${rows}
      ORDER BY k.first_sequence ${q.dir} LIMIT ${bound}
    ) k
    CROSS JOIN LATERAL (
      SELECT * FROM ${table} p WHERE ${where('p')} AND p.first_sequence = k.first_sequence OFFSET 0
    ) p
    CROSS JOIN LATERAL ${scan.unpack}
    WHERE ${q.afterCursor('e.sequence')}${scan.filter ? ` AND ${scan.filter}` : ''}
    ORDER BY k.first_sequence ${q.dir}, e.sequence ${q.dir} ${q.limit}`;
}

/**
 * The sequences of an account's packed edges (edge-pack.ts) after the page's cursor, in its order,
 * offset and limit; `filter` is a condition on the unpacked edges (`e.sequence`, and `e.msg_set_id` in
 * the packs of Cosmos txs). Every pack but an account's newest holds `PACK_SIZE` edges, so n edges lie
 * in at most ⌊n / PACK_SIZE⌋ + 2 packs from the cursor's. Filtered, a rare match in a long list costs more
 * than a common one.
 */
export function packedKeys(q: SequenceQuery, table: PackTable, account: string, filter?: string): string {
  return packedPage(q, {
    table,
    where: (a) => `${a}.account_id = ${account}`,
    // The msg sets only when filtered: unnesting them too made an unfiltered 10-record read a quarter dearer.
    unpack:
      hasMsgSets(table) && filter
        ? 'unnest(p.sequences, p.msg_set_ids) AS e(sequence, msg_set_id)'
        : 'unnest(p.sequences) AS e(sequence)',
    bound: (n) => `${n} / ${PACK_SIZE} + 2`,
    filter,
  });
}

/**
 * The sequences of the internal txs (`evm_internal_tx_pack`, a row per tx's run of frames) of the rows
 * `where` selects (a condition on a row alias), in the page's order, offset and limit. A run holds at
 * least one frame, so n frames lie in at most n + 1 runs from the cursor's.
 */
export function frameKeys(q: SequenceQuery, where: (alias: string) => string): string {
  return packedPage(q, {
    table: 'evm_internal_tx_pack',
    where,
    unpack: 'generate_series(p.first_sequence, p.first_sequence + p.frame_count - 1) AS e(sequence)',
    bound: (n) => `${n} + 1`,
  });
}
