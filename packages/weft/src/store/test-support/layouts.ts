import { insertRows } from '../bulk.js';
import { decodeCalls } from '../call-codec.js';
import type { Db } from '../db.js';

const EDGE_TABLES = [
  { name: 'tx_account', columns: 'account_id int8, sequence int8, msg_set_id int4' },
  { name: 'evm_tx_account', columns: 'account_id int8, sequence int8' },
  { name: 'evm_internal_tx_account', columns: 'account_id int8, sequence int8' },
];

/**
 * Puts the account edges, signed lists and call frames of a fully migrated store back in the layout
 * before migration 0004 (a row per edge, signer indexes, a row per frame) and forgets 0004 and later,
 * so migrating again converts a store as the previous version wrote it.
 */
export async function backToRows(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const ids = new Map(
      (await tx.query<{ id: string; address: Buffer }>('SELECT id, address FROM account')).map((a) => [
        a.address.toString('hex'),
        Number(a.id),
      ]),
    );
    const id = (address: Uint8Array) => ids.get(Buffer.from(address).toString('hex'))!;
    const packs = await tx.query<{
      first_sequence: string;
      evm_tx_sequence: string;
      height: string;
      frames: Buffer;
    }>('SELECT * FROM evm_internal_tx_pack ORDER BY first_sequence');
    const frames = packs.flatMap((p) =>
      decodeCalls(p.frames).map((f, i) => ({ ...p, sequence: Number(p.first_sequence) + i, f })),
    );
    await tx.exec(`DROP VIEW evm_internal_tx; DROP TABLE evm_internal_tx_pack;
      CREATE TABLE evm_internal_tx (sequence int8 PRIMARY KEY, height int8 NOT NULL, evm_tx_sequence int8 NOT NULL,
        index int4 NOT NULL, parent_index int4 NOT NULL, type text NOT NULL, from_id int8 NOT NULL, to_id int8,
        input bytea NOT NULL, output bytea NOT NULL, value bytea NOT NULL, gas bytea NOT NULL, gas_used bytea NOT NULL);
      CREATE INDEX evm_internal_tx_height ON evm_internal_tx (height);
      CREATE INDEX evm_internal_tx_parent ON evm_internal_tx (evm_tx_sequence);`);
    await insertRows(tx, 'evm_internal_tx', {
      sequence: ['int8', frames.map((r) => r.sequence)],
      height: ['int8', frames.map((r) => r.height)],
      evm_tx_sequence: ['int8', frames.map((r) => r.evm_tx_sequence)],
      index: ['int4', frames.map((r) => r.f.index)],
      parent_index: ['int4', frames.map((r) => r.f.parentIndex)],
      type: ['text', frames.map((r) => r.f.type)],
      from_id: ['int8', frames.map((r) => id(r.f.from))],
      to_id: ['int8', frames.map((r) => (r.f.to ? id(r.f.to) : null))],
      input: ['bytea', frames.map((r) => r.f.input)],
      output: ['bytea', frames.map((r) => r.f.output)],
      value: ['bytea', frames.map((r) => r.f.value)],
      gas: ['bytea', frames.map((r) => r.f.gas)],
      gas_used: ['bytea', frames.map((r) => r.f.gasUsed)],
    });
    for (const { name, columns } of EDGE_TABLES) {
      await tx.exec(`CREATE TABLE ${name}_rows (${columns}, PRIMARY KEY (account_id, sequence));
        INSERT INTO ${name}_rows SELECT * FROM ${name};
        DROP VIEW ${name}; DROP TABLE ${name}_pack;
        ALTER TABLE ${name}_rows RENAME TO ${name};`);
    }
    await tx.exec(`CREATE INDEX tx_account_msg_set ON tx_account (account_id, msg_set_id, sequence);
      DROP TABLE tx_signer_pack; DROP TABLE evm_tx_signer_pack;
      CREATE INDEX tx_signer ON tx (signer_id, sequence); CREATE INDEX evm_tx_signer ON evm_tx (signer_id, sequence);
      DELETE FROM schema_migrations WHERE version >= 4`);
  });
}
