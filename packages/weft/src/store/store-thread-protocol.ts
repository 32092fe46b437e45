import { BaseError } from '../common/errors.js';
import type { PgliteWasm } from './pglite-db.js';
import { RecordText } from './record-codec.js';
import type { IndexedBlock, IndexedEvmTx, IndexedTx } from './records.js';
import type { BlockWriterOptions } from './writer.js';

/** What a store thread opens: its data folder, with `openPglite`'s memory settings. */
export interface StoreThreadData {
  dataDir: string;
  sharedBuffersMb: number | undefined;
  wasm: PgliteWasm | undefined;
  template: string | undefined;
  openingNice: number | undefined;
}

/** The writer's methods, by the name the thread calls them by. */
export type WriterMethod =
  | 'writeBlocks'
  | 'writeInternalTxs'
  | 'richList.initialize'
  | 'richList.apply'
  | 'richList.set'
  | 'progress'
  | 'accountsAll'
  | 'lastBlock';

/** A request to a store thread; the thread answers each with a `Response` of the same id. */
export type Request =
  | { op: 'open' | 'close' }
  | { op: 'query'; schema: string; sql: string; params?: readonly unknown[]; tx?: number }
  | { op: 'exec'; schema: string; sql: string; tx?: number }
  | { op: 'begin' | 'schema'; schema: string }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'writer'; schema: string; options: BlockWriterOptions }
  | { op: 'write'; writer: number; method: WriterMethod; args: unknown[] };

export type Response =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ThreadError };

/** An error as data (a structured clone would keep only its message): its class, code and fields. */
export interface ThreadError {
  name: string;
  message: string;
  stack: string | undefined;
  /** Set for weft's errors, rebuilt as a `BaseError` (retries and HTTP statuses depend on it). */
  base?: { code: string; status: number; retryable: boolean };
  /** Its own plain fields, e.g. PostgreSQL's `code`, `detail`, `table`. */
  fields: Record<string, string | number | boolean>;
}

export function toThreadError(err: unknown): ThreadError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), stack: undefined, fields: {} };
  const fields: ThreadError['fields'] = {};
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  }
  const base =
    err instanceof BaseError ? { code: err.code, status: err.status, retryable: err.retryable } : undefined;
  return { name: err.name, message: err.message, stack: err.stack, base, fields };
}

export function fromThreadError(data: ThreadError): Error {
  const err = data.base ? new BaseError(data.base.code, data.message, data.base) : new Error(data.message);
  Object.assign(err, data.fields);
  err.name = data.name;
  // Where it failed, in the store's thread.
  err.stack = data.stack ?? err.stack;
  return err;
}

/** A block as a `writeBlocks` request carries it: each tx's and EVM tx's record as its JSON text. */
export interface BlockOnTheWire extends Omit<IndexedBlock, 'txs' | 'evmTxs'> {
  txs: Array<Omit<IndexedTx, 'record'> & { record: string }>;
  evmTxs: Array<Omit<IndexedEvmTx, 'record'> & { record: string }>;
}

/**
 * The records are most of a batch (100 blocks of 20 txs: ~10 MB in 160,000 objects). Cloned, they hold
 * up the sending thread for hundreds of milliseconds, then the store's to rebuild them and stringify
 * them to compress them; as text, each is one string, compressed as it is.
 */
export function blocksToWire(blocks: IndexedBlock[]): BlockOnTheWire[] {
  return blocks.map((block) => ({
    ...block,
    txs: block.txs.map((tx) => ({ ...tx, record: JSON.stringify(tx.record) })),
    evmTxs: block.evmTxs.map((tx) => ({ ...tx, record: JSON.stringify(tx.record) })),
  }));
}

/** The blocks `blocksToWire` sent, each record a `RecordText` the writer compresses as it is. */
export function blocksFromWire(blocks: BlockOnTheWire[]): IndexedBlock[] {
  const record = (text: string) => new RecordText(text) as unknown as Record<string, unknown>;
  for (const block of blocks) {
    for (const tx of block.txs) (tx as unknown as IndexedTx).record = record(tx.record);
    for (const tx of block.evmTxs) (tx as unknown as IndexedEvmTx).record = record(tx.record);
  }
  return blocks as unknown as IndexedBlock[];
}
