import { Worker } from 'node:worker_threads';
import { BaseError, errorMessage } from '../common/errors.js';
import type { Db } from './db.js';
import type { PgliteWasm } from './pglite-db.js';
import { assertSchemaName } from './schema-name.js';
import {
  blocksToWire,
  fromThreadError,
  type Request,
  type Response,
  type StoreThreadData,
  type WriterMethod,
} from './store-thread-protocol.js';
import type { BlockWriter, BlockWriterOptions } from './writer.js';

/**
 * An embedded store (PGlite) run in a worker thread of its own, with the writer that fills it. Its
 * statements are WebAssembly that runs to completion, and a write transaction holds its instance
 * (one session): in the thread, neither holds up this one, and several stores of a process run
 * side by side. A write is one message, its whole transaction runs in the thread; a read is one
 * message too, answered between two writes.
 */
export interface StoreThread {
  /** The store as any `Db` (the same JS values; bytea as Buffer). Closing it ends the thread. */
  db: Db;
  /** `createBlockWriter` of the store, run in its thread: each write is one transaction there. */
  createWriter(db: Db, options: BlockWriterOptions): BlockWriter;
}

type Call = (request: Request) => Promise<unknown>;

export interface StoreThreadOptions {
  /** Schema `db` works in, created if missing (default `public`), as `openDb`'s `schema`. */
  schema?: string;
  /** The store's `shared_buffers`, MB (absent: the data folder's); see `openPglite`. */
  sharedBuffersMb?: number;
  /** PGlite's WebAssembly compiled once (`compilePglite`), shared with the thread instead of compiled there. */
  wasm?: PgliteWasm;
  /** A dumped store a new store starts as (see `openPglite`). */
  template?: string;
  /**
   * The thread's nice value while its store opens (on Linux a thread's own), then the one it had where
   * the OS lets it go back (raising a priority needs privileges): stores opening beside a busier start
   * leave it the CPU.
   */
  openingNice?: number;
}

// Compiled, the worker runs its JavaScript; from the TypeScript source (the tests), an entry that
// registers the TypeScript loader first, which a worker thread does not inherit.
const WORKER_ENTRY = import.meta.url.endsWith('.ts')
  ? './test-support/store-thread-source.mjs'
  : './store-thread-worker.js';

export async function openStoreThread(
  dataDir: string,
  options: StoreThreadOptions = {},
): Promise<StoreThread> {
  const schema = options.schema ?? 'public';
  assertSchemaName(schema);
  const workerData: StoreThreadData = {
    dataDir,
    sharedBuffersMb: options.sharedBuffersMb,
    wasm: options.wasm,
    template: options.template,
    openingNice: options.openingNice,
  };
  const worker = new Worker(new URL(WORKER_ENTRY, import.meta.url), { workerData });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: unknown) => void }>();
  let nextId = 0;
  let closed = false;
  let stopped: BaseError | undefined;
  // Like an instance in this thread, an idle store does not keep the process alive.
  worker.unref();

  worker.on('message', (response: Response) => {
    const call = pending.get(response.id);
    pending.delete(response.id);
    if (pending.size === 0) worker.unref();
    if (response.ok) call?.resolve(response.value);
    else call?.reject(fromThreadError(response.error));
  });
  const stop = (reason: string, cause?: unknown) => {
    stopped ??= new BaseError(
      'WEFT_ERR_STORE_STOPPED',
      `the embedded store in ${dataDir} stopped: ${reason}`,
      {
        cause,
      },
    );
    for (const call of pending.values()) call.reject(stopped);
    pending.clear();
  };
  worker.on('error', (err) => stop(errorMessage(err), err));
  worker.on('exit', (code) => stop(closed ? 'it was closed' : `its thread exited with code ${code}`));

  const call: Call = (request) => {
    if (stopped) return Promise.reject(stopped);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };
  const close = async () => {
    if (closed) return;
    closed = true;
    await call({ op: 'close' });
  };

  try {
    await call({ op: 'open' });
    if (schema !== 'public') await call({ op: 'schema', schema });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  return {
    db: threadDb(call, schema, close),
    createWriter: (db, options) => threadWriter(call, db.schema, options),
  };
}

/** Bytea arrives as a Uint8Array view of a copied buffer; a Buffer of its own bytes keeps `Db`'s types. */
function asBuffers<T>(rows: Array<Record<string, unknown>>): T[] {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array) row[key] = Buffer.from(value);
    }
  }
  return rows as T[];
}

/** The same for a writer's answers (a block's hash, account addresses), at any depth. */
function withBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return value.map(withBuffers);
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const key in object) object[key] = withBuffers(object[key]);
  }
  return value;
}

function threadDb(call: Call, schema: string, close: (() => Promise<void>) | undefined): Db {
  return {
    backend: 'pglite',
    schema,
    connections: 1,
    query: async <T>(sql: string, params?: readonly unknown[]) =>
      asBuffers<T>((await call({ op: 'query', schema, sql, params })) as Array<Record<string, unknown>>),
    exec: async (sql) => void (await call({ op: 'exec', schema, sql })),
    async transaction(fn) {
      const tx = (await call({ op: 'begin', schema })) as number;
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(transactionDb(call, schema, tx));
      } catch (err) {
        // The error that ended the transaction is the one to report, not a failed rollback.
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw err;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async withSchema(name) {
      assertSchemaName(name);
      await call({ op: 'schema', schema: name });
      return threadDb(call, name, undefined);
    },
    close: async () => close?.(),
  };
}

function transactionDb(call: Call, schema: string, tx: number): Db {
  const db: Db = {
    backend: 'pglite',
    schema,
    connections: 1,
    query: async <T>(sql: string, params?: readonly unknown[]) =>
      asBuffers<T>((await call({ op: 'query', schema, sql, params, tx })) as Array<Record<string, unknown>>),
    exec: async (sql) => void (await call({ op: 'exec', schema, sql, tx })),
    transaction: (fn) => fn(db),
    withSchema: () => Promise.reject(new Error('withSchema is not available inside a transaction')),
    close: () => Promise.reject(new Error('a transaction is closed by its transaction() call')),
  };
  return db;
}

function threadWriter(call: Call, schema: string, options: BlockWriterOptions): BlockWriter {
  const writer = call({ op: 'writer', schema, options }) as Promise<number>;
  // Reported by the first write instead.
  writer.catch(() => {});
  const write = async <T>(method: WriterMethod, ...args: unknown[]) =>
    withBuffers(await call({ op: 'write', writer: await writer, method, args })) as T;
  return {
    writeBlocks: (blocks) => write('writeBlocks', blocksToWire(blocks)),
    writeInternalTxs: (heights) => write('writeInternalTxs', heights),
    richList: {
      initialize: (height, balances) => write('richList.initialize', height, balances),
      apply: (height, deltas) => write('richList.apply', height, deltas),
      set: (height, balances) => write('richList.set', height, balances),
    },
    progress: () => write('progress'),
    accountsAll: () => write('accountsAll'),
    lastBlock: () => write('lastBlock'),
  };
}
