import { type Columns, insertRows } from './bulk.js';
import type { Db } from './db.js';
import { createCallPacker2 } from './formats/calls-2.js';
import { encodeRecord2 } from './formats/record-2.js';

/**
 * Migration work SQL cannot do, run where a migration's SQL has a `-- weft:step <name>` line, in
 * the migration's transaction. A step writes with the format of its time, from `formats/` (whose files
 * do not change), never with whatever record-codec.ts or call-codec.ts write now: a later format must
 * not change what an earlier migration does (0003 wrote format 1 until format 2 came, through the
 * codec of the day).
 */
export type MigrationStep = (tx: Db) => Promise<void>;

const COPY_BATCH = 2000;

/** Copies `from` into `to` in sequence order, the json `record` compressed: record format 2 (0003). */
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
    out.record = ['bytea', rows.map((r) => encodeRecord2(Buffer.from(r.record, 'utf8')))];
    await insertRows(tx, to, out);
    after = Number(rows[rows.length - 1]!.sequence);
  }
}

/**
 * Packs `evm_internal_tx`'s rows, a frame each, into `evm_internal_tx_pack`'s, a tx's frames each: call
 * frames format 2 (0004).
 */
async function packCalls(tx: Db): Promise<void> {
  const packer = createCallPacker2();
  let after = 0;
  for (;;) {
    const rows = await tx.query<Record<string, unknown> & { sequence: string }>(
      `SELECT i.sequence, i.evm_tx_sequence, i.height, i.index, i.parent_index, i.type, f.address AS from,
         t.address AS to, i.input, i.output, i.value, i.gas, i.gas_used
       FROM evm_internal_tx i JOIN account f ON f.id = i.from_id LEFT JOIN account t ON t.id = i.to_id
       WHERE i.sequence > $1 ORDER BY i.sequence LIMIT ${COPY_BATCH}`,
      [after],
    );
    for (const r of rows) {
      packer.add(Number(r.sequence), Number(r.evm_tx_sequence), Number(r.height), {
        index: Number(r.index),
        parentIndex: Number(r.parent_index),
        type: r.type as string,
        from: r.from as Uint8Array,
        to: (r.to as Uint8Array | null) ?? null,
        input: r.input as Uint8Array,
        output: r.output as Uint8Array,
        value: r.value as Uint8Array,
        gas: r.gas as Uint8Array,
        gasUsed: r.gas_used as Uint8Array,
      });
    }
    // The last tx's frames may go on in the next rows: its run is written with them.
    await insertRows(tx, 'evm_internal_tx_pack', packer.take(rows.length < COPY_BATCH));
    if (rows.length < COPY_BATCH) return;
    after = Number(rows[rows.length - 1]!.sequence);
  }
}

export const MIGRATION_STEPS: Record<string, MigrationStep> = {
  async compress_records(tx) {
    await compressTable(tx, 'tx', 'tx_compressed', ['sequence', 'hash', 'height', 'signer_id', 'msg_set_id']);
    await compressTable(tx, 'evm_tx', 'evm_tx_compressed', ['sequence', 'hash', 'height', 'signer_id']);
  },
  pack_calls: packCalls,
};
