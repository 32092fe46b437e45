import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Db } from './db.js';
import { Oid, parseBytea, parseInt8Array, parseTimestamp, serializeBytea } from './pg-text.js';
import { assertSchemaName } from './schema-name.js';

export interface PgliteOptions {
  dataDir: string;
  schema: string | undefined;
  /**
   * PostgreSQL's `shared_buffers`, MB (absent: the data folder's, initdb's 128). It stays resident from
   * the start: a store's WebAssembly memory held about 150 MB at 128, 30 MB at 16 (measured).
   */
  sharedBuffersMb?: number;
  /** PGlite's WebAssembly compiled by `compilePglite`: instances given it, in any thread, skip their own compile. */
  wasm?: PgliteWasm;
  /**
   * A store dumped by `dumpNewStore` (a gzipped tar of its data folder): a data folder that holds no
   * store yet starts as a copy of it, instead of running initdb (seconds of WebAssembly).
   */
  template?: string;
}

/** A compiled `WebAssembly.Module` of PGlite (the ES library weft compiles with has no WebAssembly types). */
export interface PgliteWasm {
  readonly __brand: 'PgliteWasm';
}

declare const WebAssembly: { compile(bytes: Uint8Array): Promise<PgliteWasm> };

/**
 * PGlite's WebAssembly, compiled once. A worker thread given the module (it is passed by reference) runs
 * the same machine code, instead of compiling and keeping 9 MB of WebAssembly of its own.
 */
export async function compilePglite(): Promise<PgliteWasm> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return WebAssembly.compile(await readFile(join(dirname(entry), 'pglite.wasm')));
}

/**
 * A new store, made in memory and handed to `fill` (e.g. to migrate it), dumped as a gzipped tar of its
 * data folder: what `template` starts a new store as.
 */
export async function dumpNewStore(fill: (db: Db) => Promise<void>): Promise<Uint8Array> {
  const pglite = await PGlite.create('memory://', { parsers, serializers });
  try {
    await pglite.exec(`SET TimeZone TO 'UTC'`);
    await fill(sharedDb({ pglite, searchPath: 'public', turn: Promise.resolve() }, 'public', false));
    const dump = await pglite.dumpDataDir('gzip');
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await pglite.close();
  }
}

const parsers = {
  [Oid.int8]: (text: string) => text,
  [Oid.int8Array]: parseInt8Array,
  [Oid.numeric]: (text: string) => text,
  [Oid.bytea]: parseBytea,
  [Oid.timestamp]: parseTimestamp,
  [Oid.timestamptz]: parseTimestamp,
};

// PGlite's own bytea serializer formats byte by byte; this one is ~50x faster on 32-byte hashes.
const serializers = { [Oid.bytea]: (value: unknown) => serializeBytea(value as Uint8Array) };

/**
 * One PGlite instance is one session, so logical stores in different schemas share it by taking
 * turns: every call holds `turn` and first points `search_path` at its schema if another store
 * moved it.
 */
interface Instance {
  pglite: PGlite;
  searchPath: string;
  turn: Promise<unknown>;
}

export async function openPglite(options: PgliteOptions): Promise<Db> {
  const onDisk = !options.dataDir.startsWith('memory://');
  if (onDisk) await mkdir(options.dataDir, { recursive: true });
  // A template is for a new store only: one that exists is opened as it is.
  const template =
    options.template && (!onDisk || !existsSync(join(options.dataDir, 'PG_VERSION')))
      ? options.template
      : undefined;
  const pglite = await PGlite.create(options.dataDir, {
    ...(template ? { loadDataDir: new Blob([await readFile(template)]) } : {}),
    parsers,
    serializers,
    ...(options.sharedBuffersMb === undefined
      ? {}
      : {
          startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`],
        }),
    ...(options.wasm ? { pgliteWasmModule: options.wasm } : {}),
  });
  await pglite.exec(`SET TimeZone TO 'UTC'`);
  const instance: Instance = { pglite, searchPath: 'public', turn: Promise.resolve() };
  const schema = options.schema ?? 'public';
  if (options.schema) await pglite.exec(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
  return sharedDb(instance, schema, true);
}

function inTurn<T>(instance: Instance, schema: string, fn: () => Promise<T>): Promise<T> {
  const run = instance.turn.then(async () => {
    if (instance.searchPath !== schema) {
      // Outside any transaction, so a rollback cannot undo it.
      await instance.pglite.exec(`SET search_path TO ${schema}`);
      instance.searchPath = schema;
    }
    return fn();
  });
  instance.turn = run.catch(() => {});
  return run;
}

function sharedDb(instance: Instance, schema: string, owner: boolean): Db {
  const { pglite } = instance;
  return {
    backend: 'pglite',
    schema,
    connections: 1,
    query: <T>(sql: string, params?: readonly unknown[]) =>
      inTurn(instance, schema, async () => (await pglite.query<T>(sql, params as unknown[])).rows),
    exec: (sql) => inTurn(instance, schema, async () => void (await pglite.exec(sql))),
    transaction: (fn) =>
      inTurn(instance, schema, () => pglite.transaction((tx) => fn(transactionDb(tx, schema)))),
    async withSchema(name) {
      assertSchemaName(name);
      await inTurn(instance, schema, () => pglite.exec(`CREATE SCHEMA IF NOT EXISTS ${name}`));
      return sharedDb(instance, name, false);
    },
    async close() {
      if (owner && !pglite.closed) await inTurn(instance, schema, () => pglite.close());
    },
  };
}

function transactionDb(tx: Transaction, schema: string): Db {
  const db: Db = {
    backend: 'pglite',
    schema,
    connections: 1,
    query: async <T>(sql: string, params?: readonly unknown[]) =>
      (await tx.query<T>(sql, params as unknown[])).rows,
    exec: async (sql) => void (await tx.exec(sql)),
    transaction: (fn) => fn(db),
    withSchema: () => Promise.reject(new Error('withSchema is not available inside a transaction')),
    close: () => Promise.reject(new Error('a transaction is closed by its transaction() call')),
  };
  return db;
}
