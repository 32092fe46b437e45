import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Db } from './db.js';
import { openPglite } from './pglite-db.js';
import {
  type BlockOnTheWire,
  blocksFromWire,
  type Request,
  type Response,
  type StoreThreadData,
  toThreadError,
  type WriterMethod,
} from './store-thread-protocol.js';
import { type BlockWriter, createBlockWriter } from './writer.js';

/**
 * The thread side of `store-thread.ts`: one PGlite store, its schemas, the transactions its parent
 * holds open and the writers it created, answering the parent's requests.
 */
const port = parentPort!;
const { dataDir, sharedBuffersMb, wasm, template, openingNice } = workerData as StoreThreadData;

/** This thread's nice value set to `nice`, where the OS allows it; says whether it was. */
function niceTo(nice: number): boolean {
  try {
    setPriority(nice);
    return true;
  } catch {
    return false;
  }
}

/** Runs `open` at `openingNice` (if given), then goes back to the thread's nice value where allowed. */
async function openingAtNice<T>(open: () => Promise<T>): Promise<T> {
  if (openingNice === undefined) return open();
  const before = getPriority();
  const changed = niceTo(openingNice);
  try {
    return await open();
  } finally {
    if (changed) niceTo(before);
  }
}

// PGlite itself, not `openDb`: a thread has no use for the PostgreSQL client `openDb` loads.
const root = openingAtNice(() => openPglite({ dataDir, schema: undefined, sharedBuffersMb, wasm, template }));
// Reported to the parent by its first request.
root.catch(() => {});
const schemas = new Map<string, Db>();
const transactions = new Map<number, { tx: Db; end: (commit: boolean) => void; done: Promise<void> }>();
const writers = new Map<number, BlockWriter>();

async function dbOf(schema: string): Promise<Db> {
  const db = await root;
  if (schema === db.schema) return db;
  let schemaDb = schemas.get(schema);
  if (!schemaDb) {
    schemaDb = await db.withSchema(schema);
    schemas.set(schema, schemaDb);
  }
  return schemaDb;
}

function transaction(id: number) {
  const open = transactions.get(id);
  if (!open) throw new Error(`no open transaction ${id}`);
  return open;
}

const ROLLBACK = Symbol('rollback');

/** Starts a transaction that stays open, holding the store, until its `end` request. */
function begin(db: Db, id: number): Promise<number> {
  return new Promise((started, failed) => {
    let end!: (commit: boolean) => void;
    const ended = new Promise<boolean>((resolve) => {
      end = resolve;
    });
    const entry = { tx: db, end, done: Promise.resolve() };
    entry.done = db
      .transaction(async (tx) => {
        entry.tx = tx;
        transactions.set(id, entry);
        started(id);
        if (!(await ended)) throw ROLLBACK;
      })
      .catch((err: unknown) => {
        if (err !== ROLLBACK) throw err;
      });
    // A failure before the callback (BEGIN) fails the request; a later one, its `end`.
    entry.done.catch(failed);
  });
}

const methods: Record<WriterMethod, (writer: BlockWriter, args: unknown[]) => Promise<unknown>> = {
  writeBlocks: (w, [blocks]) => w.writeBlocks(blocksFromWire(blocks as BlockOnTheWire[])),
  writeInternalTxs: (w, args) => w.writeInternalTxs(...(args as Parameters<BlockWriter['writeInternalTxs']>)),
  'richList.initialize': (w, args) =>
    w.richList.initialize(...(args as Parameters<BlockWriter['richList']['initialize']>)),
  'richList.apply': (w, args) => w.richList.apply(...(args as Parameters<BlockWriter['richList']['apply']>)),
  'richList.set': (w, args) => w.richList.set(...(args as Parameters<BlockWriter['richList']['set']>)),
  progress: (w) => w.progress(),
  accountsAll: (w) => w.accountsAll(),
  lastBlock: (w) => w.lastBlock(),
};

async function answer(request: Request & { id: number }): Promise<unknown> {
  switch (request.op) {
    case 'open':
      await root;
      return undefined;
    case 'query': {
      const db = request.tx === undefined ? await dbOf(request.schema) : transaction(request.tx).tx;
      return db.query(request.sql, request.params);
    }
    case 'exec': {
      const db = request.tx === undefined ? await dbOf(request.schema) : transaction(request.tx).tx;
      return db.exec(request.sql);
    }
    case 'schema':
      await dbOf(request.schema);
      return undefined;
    case 'begin':
      return begin(await dbOf(request.schema), request.id);
    case 'end': {
      const open = transaction(request.tx);
      transactions.delete(request.tx);
      open.end(request.commit);
      // Rejects if the COMMIT did not commit.
      return open.done;
    }
    case 'writer':
      writers.set(request.id, createBlockWriter(await dbOf(request.schema), request.options));
      return request.id;
    case 'write': {
      const writer = writers.get(request.writer);
      if (!writer) throw new Error(`no writer ${request.writer}`);
      return methods[request.method](writer, request.args);
    }
    case 'close':
      return (await root).close();
  }
}

port.on('message', (request: Request & { id: number }) => {
  answer(request).then(
    (value) => {
      port.postMessage({ id: request.id, ok: true, value } satisfies Response);
      // The thread ends once its store is closed.
      if (request.op === 'close') port.close();
    },
    (err: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: toThreadError(err) } satisfies Response),
  );
});
