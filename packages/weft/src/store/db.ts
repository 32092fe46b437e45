import { availableParallelism } from 'node:os';
import { ConfigError } from '../common/errors.js';
import { openPostgres } from './pg-db.js';
import { openPglite } from './pglite-db.js';
import { assertSchemaName } from './schema-name.js';

export { schemaForChain } from './schema-name.js';

export type Backend = 'postgres' | 'pglite';

/**
 * The one seam between weft and its database: plain parameterised SQL that runs unchanged on
 * PostgreSQL and PGlite. Both back ends return the same JS values:
 *
 * | SQL type          | JS value                                                    |
 * |-------------------|-------------------------------------------------------------|
 * | int2, int4        | number                                                      |
 * | int8, numeric     | string (decimal; `Number()`/`BigInt()` it where needed)     |
 * | int4[] / int8[]   | number[] / string[]                                         |
 * | bytea             | Buffer (a Uint8Array)                                       |
 * | json, jsonb       | the parsed value (select `col::text` to get the text)       |
 * | timestamptz       | ISO-8601 UTC text with up to microseconds, `…T08:45:21.123456Z` |
 * | bool, text        | boolean, string                                             |
 *
 * Sessions run with `TimeZone=UTC`. A PostgreSQL outage surfaces as a retryable `UpstreamError`
 * (`WEFT_ERR_STORE_UNAVAILABLE`, HTTP 503).
 */
export interface Db {
  readonly backend: Backend;
  /** The schema every unqualified name resolves to (`public` unless one was chosen). */
  readonly schema: string;
  /** Statements it can run at once: the pool size on PostgreSQL, 1 on PGlite and in a transaction. */
  readonly connections: number;
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements (no parameters), e.g. a migration. */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction on one connection; a nested call joins the outer transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Another logical store over the same database and connections, in its own schema (created if
   * missing), e.g. several chains in one PostgreSQL database (`schemaForChain`). Closing the returned Db
   * releases only what it opened; closing the Db it came from closes the instance.
   */
  withSchema(name: string): Promise<Db>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** `postgres://` URL; without it the embedded PGlite store is used. */
  dsn?: string;
  /** PGlite data folder (default `.weft/pglite`); `memory://` keeps it in memory. */
  dataDir?: string;
  /** Schema to work in, created if missing (default `public`). */
  schema?: string;
  /** PostgreSQL pool size (default `DEFAULT_POOL_SIZE`). */
  poolSize?: number;
  /** How long to wait for a PostgreSQL connection before failing as unavailable (default 10 s). */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL cancels any statement running longer (default: no limit); the query then fails with
   * `QueryTooExpensiveError`. PGlite runs statements to the end (no timer inside its WASM).
   */
  statementTimeoutMs?: number;
}

export const DEFAULT_DATA_DIR = '.weft/pglite';

/**
 * PostgreSQL connections of a process unless told: twice this machine's cores, 3 to 10 (the usual
 * sizing of a pool: the server's cores times two, plus its disks). More statements at once than the
 * server has cores do not run faster; they make each one cost more: on 2 cores, the API's uncached
 * 100-record pages cost PostgreSQL 4.2-4.6 ms of CPU each with 10 connections, 1.9-2.4 ms with 3 or 4
 * (`npm run bench -- api --pool-size N`; api/README.md). A server on a larger machine
 * than its clients takes a larger `DB_POOL_SIZE`.
 */
export const DEFAULT_POOL_SIZE = Math.min(10, Math.max(3, 2 * availableParallelism()));

export async function openDb(options: OpenDbOptions = {}): Promise<Db> {
  if (options.schema !== undefined) assertSchemaName(options.schema);
  if (options.dsn) {
    if (!/^postgres(ql)?:\/\//.test(options.dsn)) {
      throw new ConfigError('DB_DSN', 'must be a postgres:// or postgresql:// URL');
    }
    return openPostgres({
      dsn: options.dsn,
      schema: options.schema,
      poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      statementTimeoutMs: options.statementTimeoutMs ?? 0,
    });
  }
  return openPglite({ dataDir: options.dataDir ?? DEFAULT_DATA_DIR, schema: options.schema });
}
