import { describe, expect, it } from 'vitest';
import { insertRows, insertRowsTogether, rowsFrom } from './bulk.js';
import { testBackends, useTestDb } from './test-support/backends.js';

const backends = await testBackends();

describe.each(backends)('bulk rows on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('write byte values as they are: empty, null, large, beside other columns', async () => {
    const db = await testDb.fresh({ migrate: false });
    await db.exec('CREATE TABLE bytes_row (id int8, data bytea, label text, more bytea)');
    const large = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const data = [Buffer.from([0, 1, 2]), Buffer.alloc(0), null, large, Buffer.from('\\x00"')];
    const more = [null, Buffer.from([255]), Buffer.from([9, 9]), null, Buffer.alloc(0)];
    await insertRows(db, 'bytes_row', {
      id: ['int8', [1, 2, 3, 4, 5]],
      data: ['bytea', data],
      label: ['text', ['a', 'b', 'c', 'd', 'e']],
      more: ['bytea', more],
    });
    const rows = await db.query<{ id: string; data: Buffer | null; label: string; more: Buffer | null }>(
      'SELECT id, data, label, more FROM bytes_row ORDER BY id',
    );
    expect(
      rows.map((r) => [r.id, r.data && Buffer.from(r.data), r.label, r.more && Buffer.from(r.more)]),
    ).toEqual([
      ['1', data[0], 'a', null],
      ['2', data[1], 'b', more[1]],
      ['3', null, 'c', more[2]],
      ['4', large, 'd', null],
      ['5', data[4], 'e', more[4]],
    ]);
  });

  it('write several tables in one statement, their parameters numbered in turn; a table with no rows is left out', async () => {
    const db = await testDb.fresh({ migrate: false });
    await db.exec(
      'CREATE TABLE tally (name text PRIMARY KEY, n int8); CREATE TABLE blob_row (id int8, data bytea)',
    );
    await db.exec(`INSERT INTO tally VALUES ('a', 5)`);
    const statements: string[] = [];
    const spy = {
      ...db,
      query: ((sql: string, params?: unknown[]) => {
        statements.push(sql);
        return db.query(sql, params);
      }) as typeof db.query,
    };
    await insertRowsTogether(spy, [
      {
        table: 'tally',
        columns: { name: ['text', ['a', 'b']], n: ['int8', [2, 3]] },
        suffix: 'ON CONFLICT (name) DO UPDATE SET n = t.n + EXCLUDED.n',
      },
      { table: 'blob_row', columns: { id: ['int8', []], data: ['bytea', []] } },
      { table: 'blob_row', columns: { id: ['int8', [7]], data: ['bytea', [Buffer.from([1, 2])]] } },
    ]);
    await insertRowsTogether(spy, [
      { table: 'blob_row', columns: { id: ['int8', []], data: ['bytea', []] } },
    ]);
    expect(statements).toHaveLength(1);
    expect(await db.query('SELECT name, n::int FROM tally ORDER BY name')).toEqual([
      { name: 'a', n: 7 },
      { name: 'b', n: 3 },
    ]);
    const [blob] = await db.query<{ id: string; data: Buffer }>('SELECT id, data FROM blob_row');
    expect([blob!.id, Buffer.from(blob!.data)]).toEqual(['7', Buffer.from([1, 2])]);
  });

  it('give a derived table whose columns custom SQL can name, as the block insert does', async () => {
    const db = await testDb.fresh({ migrate: false });
    const rows = rowsFrom({
      n: ['int8', [2, 1]],
      hash: ['bytea', [Buffer.from([0xab]), Buffer.from([0xcd, 0xef])]],
    });
    const out = await db.query<{ n: string; hash: Buffer }>(
      `SELECT r.n, r.hash FROM ${rows.from} ORDER BY r.n`,
      rows.params,
    );
    expect(out.map((r) => [r.n, Buffer.from(r.hash).toString('hex')])).toEqual([
      ['1', 'cdef'],
      ['2', 'ab'],
    ]);
  });
});
