import { describe, expect, it } from 'vitest';
import { openDb } from './db.js';
import { assertSchemaKnown, loadMigrations, migrate } from './migrate.js';
import { testBackends, useTestDb } from './test-support/backends.js';

const backends = await testBackends();

describe.each(backends)('migrate on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('applies every migration once and records it; a second run changes nothing', async () => {
    const db = await testDb.fresh({ migrate: false });
    const shipped = await loadMigrations();
    expect(shipped.map((m) => m.version)).toEqual([...shipped.keys()].map((i) => i + 1));
    expect(await migrate(db)).toEqual({ applied: shipped.map((m) => m.version) });
    expect(await migrate(db)).toEqual({ applied: [] });
    const recorded = await db.query<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(recorded).toEqual(shipped.map((m) => ({ version: m.version, name: m.name })));
    const tables = await db.query<{ n: number }>(
      `SELECT count(*)::int4 AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'tx_account_pack'`,
    );
    expect(tables).toEqual([{ n: 1 }]);
  });

  it('moves the account tx totals of a store built before they were kept per account', async () => {
    const db = await testDb.fresh({ migrate: false });
    const shipped = await loadMigrations();
    await migrate(db, shipped.slice(0, 1));
    await db.exec(`
      INSERT INTO account_msg_set (account_id, msg_set_id, txs, signed_txs)
        VALUES (1, 1, 5, 2), (1, 2, 3, 3), (2, 1, 4, 0);
      INSERT INTO account_stat (account_id, evm_txs) VALUES (2, 7), (3, 1);`);
    expect(await migrate(db)).toEqual({ applied: shipped.slice(1).map((m) => m.version) });
    const stats = await db.query<Record<string, string>>(
      'SELECT account_id, txs, signed_txs, evm_txs FROM account_stat ORDER BY account_id',
    );
    expect(stats.map((r) => [r.account_id, r.txs, r.signed_txs, r.evm_txs].map(Number))).toEqual([
      [1, 8, 5, 0],
      [2, 4, 0, 7],
      [3, 0, 0, 1],
    ]);
  });

  it('rolls a failing migration back entirely and applies nothing after it', async () => {
    const db = await testDb.fresh({ migrate: false });
    const broken = [
      { version: 1, name: 'good', sql: 'CREATE TABLE good (n int4)' },
      { version: 2, name: 'bad', sql: 'CREATE TABLE bad (n int4); SELECT no_such_function()' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow(/no_such_function/);
    const tables = await db.query(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`);
    expect(tables).toEqual([]);
  });

  it('refuses a database migrated by a newer weft', async () => {
    const db = await testDb.fresh();
    await db.query(`INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')`);
    await expect(migrate(db)).rejects.toMatchObject({ code: 'WEFT_ERR_STORE_SCHEMA_NEWER' });
  });

  it('tells a reader whether it knows the schema: not created yet, current, or migrated by a newer weft', async () => {
    const empty = await testDb.fresh({ migrate: false });
    await expect(assertSchemaKnown(empty)).resolves.toBeUndefined();
    const current = await testDb.fresh();
    await expect(assertSchemaKnown(current)).resolves.toBeUndefined();
    await current.query(`INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')`);
    await expect(assertSchemaKnown(current)).rejects.toMatchObject({ code: 'WEFT_ERR_STORE_SCHEMA_NEWER' });
  });
});

describe.skipIf(!backends.includes('postgres'))('migrate on concurrent PostgreSQL clients', () => {
  const testDb = useTestDb('postgres');

  it('lets concurrent processes race: one migrates, the others find it done', async () => {
    const dbs = await Promise.all([1, 2, 3].map(() => openDb({ dsn: testDb.dsn()!, schema: 'raced' })));
    const results = await Promise.all(dbs.map((db) => migrate(db)));
    const applied = results.map((r) => r.applied.length).sort();
    expect(applied[0]).toBe(0);
    expect(applied[1]).toBe(0);
    expect(applied[2]).toBeGreaterThan(0);
    await Promise.all(dbs.map((db) => db.close()));
  });
});
