import { describe, expect, it } from 'vitest';
import type { Db } from './db.js';
import { digest } from './digest.js';
import { loadMigrations, migrate } from './migrate.js';
import { decodeRecord } from './record-codec.js';
import { storeAnswers } from './test-support/api-answers.js';
import { testBackends, useTestDb } from './test-support/backends.js';
import { EVM_CHAIN, syntheticChain } from './test-support/chain.js';
import { backToRows } from './test-support/layouts.js';
import { createBlockWriter } from './writer.js';

const backends = await testBackends();
const chain = syntheticChain({
  blocks: 12,
  txsPerBlock: 5,
  accountsPerTx: 3,
  accounts: 15,
  seed: 5,
  evm: true,
  nfts: true,
  recordPadding: 'a memo long enough that some records are over two kilobytes: '.repeat(40),
});

/**
 * Puts the tx tables of a fully migrated store back in the layout of migration 0002 (records as
 * `json` text, exactly as that writer stored them) and forgets 0003, so migrating again converts a
 * store as the previous version wrote it.
 */
async function backToJsonRecords(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of ['tx', 'evm_tx']) {
      const rows = await tx.query<{ sequence: string; record: Uint8Array }>(
        `SELECT sequence, record FROM ${table}`,
      );
      await tx.exec(`ALTER TABLE ${table} RENAME COLUMN record TO packed;
        ALTER TABLE ${table} ADD COLUMN record json`);
      await tx.query(
        `UPDATE ${table} t SET record = r.record::json
         FROM ROWS FROM (unnest($1::int8[]), unnest($2::text[])) AS r(sequence, record) WHERE t.sequence = r.sequence`,
        [rows.map((r) => r.sequence), rows.map((r) => decodeRecord(r.record))],
      );
      await tx.exec(`ALTER TABLE ${table} DROP COLUMN packed, ALTER COLUMN record SET NOT NULL`);
    }
    await tx.exec('DELETE FROM schema_migrations WHERE version = 3');
  });
}

describe.each(backends)('migration 0003 (compressed records) on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('converts a store written before it in place: same rows, same answers, smaller records', async () => {
    const written = await testDb.fresh();
    await createBlockWriter(written, EVM_CHAIN).writeBlocks(chain);
    const converted = await testDb.fresh();
    await createBlockWriter(converted, EVM_CHAIN).writeBlocks(chain);
    await backToRows(converted);
    await backToJsonRecords(converted);

    const records = chain.flatMap((b) => b.txs.map((t) => JSON.stringify(t.record)));
    const stored = await converted.query<{ record: string; type: string }>(
      'SELECT record::text AS record, pg_typeof(record)::text AS type FROM tx ORDER BY sequence',
    );
    expect(stored).toEqual(records.map((record) => ({ record, type: 'json' })));
    expect(records.some((r) => r.length > 2100)).toBe(true);

    const shipped = await loadMigrations();
    expect(await migrate(converted)).toEqual({ applied: [3, 4, 5] });
    expect(shipped.map((m) => m.version)).toContain(3);
    expect(await digest(converted)).toEqual(await digest(written));
    const [packed] = await converted.query<{ n: string }>('SELECT sum(octet_length(record)) AS n FROM tx');
    expect(Number(packed!.n)).toBeLessThan(records.reduce((n, r) => n + r.length, 0) / 4);
    const after = await storeAnswers(converted, chain);
    expect(after).toEqual(await storeAnswers(written, chain));
    expect(after.filter((a) => / 200 \{"(txs|tx|evm_txs|evm_tx|internal_txs)":/.test(a)).length).toBe(
      after.length,
    );
    const listed = after.find((a) =>
      a.startsWith('/indexer/tx/v1/txs?pagination.limit=1000&pagination.reverse=false '),
    );
    expect(listed).toContain(`{"txs":[${records.join(',')}]`);

    // The converted store keeps being written to like any other.
    const more = syntheticChain({
      blocks: 14,
      txsPerBlock: 5,
      accountsPerTx: 3,
      accounts: 15,
      seed: 5,
      evm: true,
    });
    await createBlockWriter(converted, EVM_CHAIN).writeBlocks(
      more.slice(12).map((b) => ({ ...b, nftChanges: [] })),
    );
    expect(
      Number((await converted.query<{ n: string }>('SELECT count(*) AS n FROM tx'))[0]!.n),
    ).toBeGreaterThan(60);
  });
});
