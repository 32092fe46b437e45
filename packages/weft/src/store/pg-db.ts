import { createHash } from 'node:crypto';
import pg from 'pg';
import { BaseError, QueryTooExpensiveError, UpstreamError } from '../common/errors.js';
import type { Db } from './db.js';
import { Oid, parseTimestamp } from './pg-text.js';
import { assertSchemaName } from './schema-name.js';

export interface PostgresOptions {
  dsn: string;
  schema: string | undefined;
  poolSize: number;
  connectTimeoutMs: number;
  /** Cancels any statement running longer (0: no limit). */
  statementTimeoutMs: number;
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === Oid.timestamptz || oid === Oid.timestamp) return parseTimestamp;
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
};

/** SQLSTATE classes and driver errors that mean "the server is not there right now". */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|terminating connection/i;

export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code))
      return true;
  }
  if (err instanceof AggregateError && err.errors.some(isUnavailable)) return true;
  return UNAVAILABLE_MESSAGES.test(err.message);
}

/** SQLSTATE of a statement cancelled, here by `statement_timeout`. */
const QUERY_CANCELED = '57014';

function translate(err: unknown, options?: PostgresOptions): unknown {
  if (err instanceof BaseError) return err;
  if ((err as { code?: unknown }).code === QUERY_CANCELED && options?.statementTimeoutMs) {
    return new QueryTooExpensiveError(
      `query too expensive: the store stopped it at the ${options.statementTimeoutMs} ms statement timeout ` +
        '(page with pagination.key, the next_key of the previous page, instead of a deep offset)',
      { cause: err },
    );
  }
  if (!isUnavailable(err)) return err;
  const text = refused(err)
    ? `PostgreSQL at ${serverOf(options?.dsn)} (DB_DSN) refuses connections (ECONNREFUSED)`
    : (err as Error).message || (err as Error).name;
  return new UpstreamError(`database unavailable: ${text}`, {
    code: 'WEFT_ERR_STORE_UNAVAILABLE',
    cause: err,
    hint: 'start PostgreSQL there, or leave DB_DSN empty to use the embedded store (PGlite) in --data-dir',
  });
}

/** Nothing listens at the server's address (each of its addresses, when the host has several). */
function refused(err: unknown): boolean {
  if ((err as { code?: unknown }).code === 'ECONNREFUSED') return true;
  return err instanceof AggregateError && err.errors.length > 0 && err.errors.every(refused);
}

/** `host:port` of a PostgreSQL URL, without its credentials. */
function serverOf(dsn: string | undefined): string {
  try {
    const url = new URL(dsn ?? '');
    return `${url.hostname || 'localhost'}:${url.port || 5432}`;
  } catch {
    return 'the DB_DSN server';
  }
}

export async function openPostgres(options: PostgresOptions): Promise<Db> {
  const root = createPool(options, options.schema);
  if (options.schema) await createSchema(root, options.schema, options);
  return poolDb(root, options, options.schema ?? 'public');
}

function createPool(options: PostgresOptions, schema: string | undefined): pg.Pool {
  const settings = ['-c TimeZone=UTC'];
  if (schema) settings.push(`-c search_path=${schema}`);
  if (options.statementTimeoutMs > 0) settings.push(`-c statement_timeout=${options.statementTimeoutMs}`);
  const pool = new pg.Pool({
    connectionString: options.dsn,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    options: settings.join(' '),
    types,
  });
  // An idle connection that dies (server restart) must not crash the process; the next query
  // reconnects or reports the outage.
  pool.on('error', () => {});
  return pool;
}

async function createSchema(pool: pg.Pool, schema: string, options: PostgresOptions): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (err) {
    // Two processes creating it at once: one wins, the other sees a duplicate.
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw translate(err, options);
  }
}

// Parameterised statements are prepared once per connection under a stable name: planning is most of
// the cost of the API's small reads. The map is bounded so ad-hoc SQL cannot grow it without end.
const MAX_NAMED_STATEMENTS = 1000;
const statementNames = new Map<string, string>();

function queryConfig(sql: string, params?: readonly unknown[]): pg.QueryConfig {
  const values = params as unknown[] | undefined;
  if (!values || values.length === 0) return { text: sql };
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `weft_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    statementNames.set(sql, name);
  }
  return name === undefined ? { text: sql, values } : { name, text: sql, values };
}

function poolDb(pool: pg.Pool, options: PostgresOptions, schema: string): Db {
  const db: Db = {
    backend: 'postgres',
    schema,
    connections: options.poolSize,
    async query<T>(sql: string, params?: readonly unknown[]) {
      try {
        return (await pool.query(queryConfig(sql, params))).rows as T[];
      } catch (err) {
        throw translate(err, options);
      }
    },
    async exec(sql) {
      await db.query(sql);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw translate(err, options);
      }
      // While checked out, a dropped connection emits 'error' on the client; without a listener
      // that would be an uncaught exception.
      let broken: unknown;
      const onError = (err: unknown) => {
        broken = err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(clientDb(client, schema, options));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        try {
          if (broken === undefined) await client.query('ROLLBACK');
        } catch (rollbackErr) {
          broken = rollbackErr;
        }
        throw translate(err, options);
      } finally {
        client.off('error', onError);
        client.release(broken === undefined ? undefined : (broken as Error));
      }
    },
    async withSchema(name) {
      assertSchemaName(name);
      const pool = createPool(options, name);
      await createSchema(pool, name, options);
      return poolDb(pool, options, name);
    },
    async close() {
      await pool.end();
    },
  };
  return db;
}

function clientDb(client: pg.PoolClient, schema: string, options: PostgresOptions): Db {
  const db: Db = {
    backend: 'postgres',
    schema,
    connections: 1,
    async query<T>(sql: string, params?: readonly unknown[]) {
      try {
        return (await client.query(queryConfig(sql, params))).rows as T[];
      } catch (err) {
        throw translate(err, options);
      }
    },
    async exec(sql) {
      await db.query(sql);
    },
    transaction: (fn) => fn(db),
    withSchema: () => Promise.reject(new Error('withSchema is not available inside a transaction')),
    close: () => Promise.reject(new Error('a transaction is closed by its transaction() call')),
  };
  return db;
}
