import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type Backend, type Db, openDb } from '../db.js';
import { migrate } from '../migrate.js';
import { openStoreThread } from '../store-thread.js';

/** The PostgreSQL server the tests use (trust auth); each test file makes and drops its own database. */
export const TEST_PG_URL = process.env.WEFT_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** PGlite always; PostgreSQL when it answers, and always in CI (where its absence is a failure). */
export async function testBackends(): Promise<Backend[]> {
  if (process.env.CI === 'true' || (await postgresReachable())) return ['pglite', 'postgres'];
  process.stderr.write(
    `PostgreSQL is not reachable at ${TEST_PG_URL}: running the store tests on PGlite only\n`,
  );
  return ['pglite'];
}

/** A back end as the tests name it: `pglite-thread` is PGlite in a thread of its own (`openStoreThread`). */
export type TestBackend = Backend | 'pglite-thread';

function adminQuery(sql: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  return client
    .connect()
    .then(() => client.query(sql))
    .finally(() => client.end());
}

export interface TestDb {
  /** The database of this test file (public schema, not migrated). */
  root(): Db;
  /** A new empty schema, migrated unless told otherwise: one per test keeps tests independent. */
  fresh(options?: { migrate?: boolean }): Promise<Db>;
  /** The DSN of the file's database (PostgreSQL only). */
  dsn(): string | undefined;
}

interface SharedDatabase {
  root: Db;
  dsn: string | undefined;
  database: string | undefined;
  users: number;
}

// One database per back end per test file (a PGlite instance takes seconds to start); every
// describe block that asks for it shares it, and each test takes its own schema.
const shared = new Map<TestBackend, Promise<SharedDatabase>>();
let schemas = 0;

async function openShared(backend: TestBackend): Promise<SharedDatabase> {
  if (backend !== 'postgres') {
    const root =
      backend === 'pglite' ? await openDb({ dataDir: 'memory://' }) : (await openStoreThread('memory://')).db;
    return { root, dsn: undefined, database: undefined, users: 0 };
  }
  const database = `weft_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${database}`;
  const dsn = url.toString();
  return { root: await openDb({ dsn }), dsn, database, users: 0 };
}

/** Registers hooks that open (or share) a throw-away database on `backend` for the calling describe block. */
export function useTestDb(backend: TestBackend): TestDb {
  let db: SharedDatabase | undefined;
  const opened: Db[] = [];
  beforeAll(async () => {
    if (!shared.has(backend)) shared.set(backend, openShared(backend));
    db = await shared.get(backend)!;
    db.users += 1;
  });
  afterAll(async () => {
    for (const schemaDb of opened) await schemaDb.close();
    db!.users -= 1;
    if (db!.users > 0) return;
    shared.delete(backend);
    await db!.root.close();
    if (db!.database) await adminQuery(`DROP DATABASE IF EXISTS ${db!.database} WITH (FORCE)`);
  });
  return {
    root: () => db!.root,
    dsn: () => db!.dsn,
    async fresh(options = {}) {
      schemas += 1;
      const schemaDb = await db!.root.withSchema(`test_${schemas}`);
      opened.push(schemaDb);
      if (options.migrate !== false) await migrate(schemaDb);
      return schemaDb;
    },
  };
}
