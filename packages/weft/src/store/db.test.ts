import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { QueryTooExpensiveError, UpstreamError } from '../common/errors.js';
import { openDb } from './db.js';
import { schemaForChain } from './schema-name.js';
import { type TestBackend, testBackends, useTestDb } from './test-support/backends.js';

const backends = await testBackends();

describe.each<TestBackend>([...backends, 'pglite-thread'])('Db on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('returns the same JS values on every back end', async () => {
    const db = await testDb.fresh({ migrate: false });
    await db.exec(`CREATE TABLE v (a int8, i int4, n numeric, t timestamptz, b bytea, j json, jb jsonb, ok bool,
      a8 int8[], a4 int4[])`);
    await db.query(
      `INSERT INTO v SELECT * FROM unnest($1::int8[], $2::int4[], $3::numeric[], $4::timestamptz[], $5::bytea[],
        $6::json[], $7::jsonb[], $8::bool[]), LATERAL (SELECT ARRAY[1, 9007199254740993]::int8[], ARRAY[3]::int4[]) x`,
      [
        [1n, '9007199254740993'],
        [7, -1],
        ['1.50', '123456789012345678901234567890'],
        ['2025-08-06T08:45:21.123456789Z', '2025-08-06T10:45:21+02:00'],
        [new Uint8Array([1, 2]), Buffer.alloc(0)],
        ['{"b":1,"a":2}', '[]'],
        ['{"b":1,"a":2}', 'null'],
        [true, false],
      ],
    );
    const rows = await db.query('SELECT * FROM v ORDER BY a');
    expect(rows).toEqual([
      {
        a: '1',
        i: 7,
        n: '1.50',
        t: '2025-08-06T08:45:21.123457Z',
        b: Buffer.from([1, 2]),
        j: { b: 1, a: 2 },
        jb: { a: 2, b: 1 },
        ok: true,
        a8: ['1', '9007199254740993'],
        a4: [3],
      },
      {
        a: '9007199254740993',
        i: -1,
        n: '123456789012345678901234567890',
        t: '2025-08-06T08:45:21Z',
        b: Buffer.alloc(0),
        j: [],
        jb: null,
        ok: false,
        a8: ['1', '9007199254740993'],
        a4: [3],
      },
    ]);
    // json keeps the text it was given, key order included.
    expect(await db.query('SELECT j::text AS text FROM v ORDER BY a LIMIT 1')).toEqual([
      { text: '{"b":1,"a":2}' },
    ]);
  });

  it('commits a transaction, or rolls all of it back', async () => {
    const db = await testDb.fresh({ migrate: false });
    await db.exec('CREATE TABLE t (n int4)');
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1)');
      await tx.transaction((inner) => inner.query('INSERT INTO t VALUES (2)'));
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (3)');
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    await expect(db.transaction((tx) => tx.query('INSERT INTO t VALUES (oops)'))).rejects.toThrow();
    expect(await db.query('SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('reports a failed statement with PostgreSQL’s error code', async () => {
    const db = await testDb.fresh({ migrate: false });
    // The API tells an unmigrated store (42P01, undefined table) from other failures by it.
    await expect(db.query('SELECT * FROM missing')).rejects.toMatchObject({ code: '42P01' });
    await expect(db.transaction((tx) => tx.query('SELECT * FROM missing'))).rejects.toMatchObject({
      code: '42P01',
    });
  });

  it('keeps logical stores apart in schemas of one database, even when interleaved', async () => {
    const a = await testDb.root().withSchema(schemaForChain('minievm-1'));
    const b = await testDb.root().withSchema(schemaForChain('minimove-1'));
    expect(a.schema).toBe('chain_minievm_1');
    await a.exec('CREATE TABLE t (v text)');
    await b.exec('CREATE TABLE t (v text)');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? a.transaction(async (tx) => tx.query('INSERT INTO t VALUES ($1)', [`a${i}`]))
          : b.query('INSERT INTO t VALUES ($1)', [`b${i}`]),
      ),
    );
    const values = async (db: typeof a) =>
      (await db.query<{ v: string }>('SELECT v FROM t')).map((r) => r.v[0]);
    expect(new Set(await values(a))).toEqual(new Set(['a']));
    expect(new Set(await values(b))).toEqual(new Set(['b']));
    expect(await a.query('SELECT count(*)::int4 AS n FROM t')).toEqual([{ n: 10 }]);
    await a.close();
    await b.close();
  });
});

describe.skipIf(!backends.includes('postgres'))('Db on an unavailable PostgreSQL', () => {
  const testDb = useTestDb('postgres');

  it('takes twice the machine’s cores in connections, 3 to 10, unless told', async () => {
    const unsized = await openDb({ dsn: testDb.dsn() });
    const sized = await openDb({ dsn: testDb.dsn(), poolSize: 12 });
    try {
      expect(unsized.connections).toBe(Math.min(10, Math.max(3, 2 * availableParallelism())));
      expect(sized.connections).toBe(12);
    } finally {
      await unsized.close();
      await sized.close();
    }
  });

  it('stops a statement at the statement timeout as a query too expensive, and keeps serving', async () => {
    const db = await openDb({ dsn: testDb.dsn(), statementTimeoutMs: 50 });
    try {
      const failure = await db.query('SELECT pg_sleep(2)').catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(QueryTooExpensiveError);
      expect(failure).toMatchObject({ code: 'WEFT_ERR_QUERY_TOO_EXPENSIVE', status: 503, grpcCode: 8 });
      expect((failure as Error).message).toMatch(/^query too expensive: .* 50 ms statement timeout/);
      expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });

  it('reports a server that does not answer as a retryable 503', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const db = await openDb({ dsn: `postgres://postgres@127.0.0.1:${port}/none`, connectTimeoutMs: 1000 });
    const failure = await db.query('SELECT 1').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ code: 'WEFT_ERR_STORE_UNAVAILABLE', status: 503, retryable: true });
    await expect(db.transaction((tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(UpstreamError);
    await db.close();
  });

  it('survives its connections being killed, idle or in a transaction, and reconnects', async () => {
    const db = await openDb({ dsn: testDb.dsn()!, poolSize: 2 });
    const killer = await openDb({ dsn: testDb.dsn()! });
    const killAll = () =>
      killer.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
    await db.query('SELECT 1');
    await killAll(); // the idle pooled connection dies: the pool must not throw it at the process
    await new Promise((resolve) => setTimeout(resolve, 100));
    const failure = await db
      .transaction(async (tx) => {
        await tx.query('SELECT 1');
        await killAll();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.query('SELECT 2');
      })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(await db.query('SELECT 3 AS n')).toEqual([{ n: 3 }]);
    await killer.close();
    await db.close();
  });
});
