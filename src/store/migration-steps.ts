import { type Columns, insertRows } from './bulk.js';
import type { Db } from './db.js';
import { encodeRecord } from './record-codec.js';

/**
 * Migration work SQL cannot do, run where a migration's SQL has a `-- weft:step <name>` line, in
 * the migration's transaction.
 */
export type MigrationStep = (tx: Db) => Promise<void>;

const COPY_BATCH = 2000;

/** Copies `from` into `to` in sequence order, the json `record` compressed (0003). */
async function compressTable(tx: Db, from: string, to: string, columns: string[]): Promise<void> {
  let after = -1;
  for (;;) {
    const rows = await tx.query<Record<string, unknown> & { sequence: string; record: string }>(
      `SELECT ${columns.join(', ')}, record::text AS record FROM ${from}
       WHERE sequence > $1 ORDER BY sequence LIMIT ${COPY_BATCH}`,
      [after],
    );
    if (rows.length === 0) return;
    const out: Columns = {};
    for (const c of columns)
      out[c] = [c === 'hash' ? 'bytea' : c === 'msg_set_id' ? 'int4' : 'int8', rows.map((r) => r[c])];
    out.record = ['bytea', rows.map((r) => encodeRecord(r.record))];
    await insertRows(tx, to, out);
    after = Number(rows[rows.length - 1]!.sequence);
  }
}

export const MIGRATION_STEPS: Record<string, MigrationStep> = {
  async compress_records(tx) {
    await compressTable(tx, 'tx', 'tx_compressed', ['sequence', 'hash', 'height', 'signer_id', 'msg_set_id']);
    await compressTable(tx, 'evm_tx', 'evm_tx_compressed', ['sequence', 'hash', 'height', 'signer_id']);
  },
};
