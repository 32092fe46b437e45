import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Db, openDb } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';

/** The throw-away stores of `npm run bench -- ingest`: a PostgreSQL database or a PGlite folder. */

export const PG_URL = process.env.WEFT_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One relation of the chain's schema after the run, in bytes. */
export interface RelationSize {
  /** Table (or materialized view, sequence) name. */
  relation: string;
  /** Heap with its free-space and visibility maps, TOAST left out. */
  table: number;
  /** The TOAST table and its index. */
  toast: number;
  indexes: number;
  /** All of the above (`pg_total_relation_size`). */
  total: number;
}

export interface StoreAfter {
  /** Growth of the whole database over the run (`pg_database_size`). */
  bytes: number;
  txs: number;
  /** Every relation of the chain's schema, biggest first. */
  relations: RelationSize[];
}

export interface Store {
  env: Record<string, string>;
  /** The PostgreSQL database's name (its backends are the store's CPU); undefined for PGlite. */
  database?: string;
  /** Bytes of the migrated, empty store. */
  before: number;
  after(): Promise<StoreAfter>;
  drop(): Promise<void>;
}

async function sizeOf(db: Db): Promise<number> {
  const [row] = await db.query<{ size: string }>('SELECT pg_database_size(current_database()) AS size');
  return Number(row!.size);
}

/** Tables, TOAST and indexes of every relation of the store's schema (the one the indexer writes). */
export async function relationSizes(db: Db): Promise<RelationSize[]> {
  const rows = await db.query<Record<'relation' | 'heap' | 'toast' | 'indexes' | 'total', string>>(
    `SELECT c.relname AS relation,
       pg_table_size(c.oid) - coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0) AS heap,
       coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0) AS toast,
       pg_indexes_size(c.oid) AS indexes,
       pg_total_relation_size(c.oid) AS total
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'm', 'S')
     ORDER BY pg_total_relation_size(c.oid) DESC, c.relname`,
    [db.schema],
  );
  return rows.map((r) => ({
    relation: r.relation,
    table: Number(r.heap),
    toast: Number(r.toast),
    indexes: Number(r.indexes),
    total: Number(r.total),
  }));
}

async function measure(db: Db, before: number): Promise<StoreAfter> {
  const [row] = await db.query<{ n: string }>('SELECT count(*) AS n FROM tx');
  return { bytes: (await sizeOf(db)) - before, txs: Number(row!.n), relations: await relationSizes(db) };
}

export async function postgresStore(): Promise<Store> {
  const name = `weft_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dsn = url.toString();
  const db = await openDb({ dsn });
  await migrate(db);
  const before = await sizeOf(db);
  return {
    env: { DB_DSN: dsn },
    database: name,
    before,
    after: () => measure(db, before),
    async drop() {
      await db.close();
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function pgliteStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-pglite-'));
  const empty = await openDb({ dataDir: dir });
  await migrate(empty);
  const before = await sizeOf(empty);
  await empty.close();
  return {
    env: { DATA_DIR: dir },
    before,
    async after() {
      const db = await openDb({ dataDir: dir });
      try {
        return await measure(db, before);
      } finally {
        await db.close();
      }
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Bytes per tx of the chain's schema, and its relations of at least 1% of it (tables, TOAST, indexes),
 * biggest first; the smaller ones summed as one `other` entry.
 */
export function sizeReport(relations: RelationSize[], txs: number) {
  const schemaBytes = relations.reduce((sum, r) => sum + r.total, 0);
  const big = relations.filter((r) => r.total >= schemaBytes / 100);
  const small = relations.filter((r) => r.total < schemaBytes / 100);
  const row = (r: Omit<RelationSize, 'relation'>) => ({
    table_bytes: r.table,
    toast_bytes: r.toast,
    index_bytes: r.indexes,
    total_bytes: r.total,
  });
  const sum = (key: keyof Omit<RelationSize, 'relation'>) => small.reduce((n, r) => n + r[key], 0);
  return {
    schema_bytes: schemaBytes,
    schema_bytes_per_tx: Math.round(schemaBytes / txs),
    relations: {
      ...Object.fromEntries(big.map((r) => [r.relation, row(r)])),
      ...(small.length > 0
        ? {
            [`other (${small.length} relations)`]: row({
              table: sum('table'),
              toast: sum('toast'),
              indexes: sum('indexes'),
              total: sum('total'),
            }),
          }
        : {}),
    },
  };
}
