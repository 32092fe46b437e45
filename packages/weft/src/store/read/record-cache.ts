import { createByteLru } from '../../common/lru.js';

/**
 * Stored tx and EVM tx records by sequence, kept in the reading process. A record never changes once
 * its batch is committed, so a page reads its keys (and total) from the store and only the records
 * this cache lacks. Wallets poll the newest page of the same accounts over and over; those records
 * stay here while the keys query stays exact.
 *
 * Bounded by the records' total length, least recently used out first. Entries also expire after
 * `ttlMs`: a store wiped and rebuilt under a running reader reuses sequences, and the TTL bounds how
 * long an old record could be served for a reused one.
 *
 * A record read from the store is kept only when it is read again within the cache's reach (`offer`): a
 * ghost list remembers the keys of the last `maxBytes` of records offered and not kept, and a record
 * offered again while its key is there goes in. A record read once (a deep walk, an export) never pushes
 * out the hot ones, and records whose reads come back further apart than the cache could keep them are
 * not churned through it: with 1,000 accounts' 100-record pages read in turn (230 MB) against 64 MB,
 * keeping each page's records on every read doubled the API's CPU per page (old-generation collections
 * of the records pushed out), for the fifth of them still there when their page came back.
 */

export type RecordTable = 'tx' | 'evm_tx';

export interface RecordCache {
  get(table: RecordTable, sequence: number): Buffer | undefined;
  /** A record read from the store: kept when it was offered before within reach; whether it was kept. */
  offer(table: RecordTable, sequence: number, json: Buffer): boolean;
  /** Keeps a record whatever its reads. */
  set(table: RecordTable, sequence: number, json: Buffer): void;
  /**
   * The records of `sequences` this cache holds, and the others through `read` (its records are
   * offered). One store read per record at a time: a record another page is reading is awaited, and
   * that read's error is every waiter's; nothing of a failed read is kept. A record the store lacks
   * is absent from the answer.
   */
  load(
    table: RecordTable,
    sequences: readonly number[],
    read: (missing: number[]) => Promise<Map<number, Buffer>>,
  ): Promise<Map<number, Buffer>>;
  /**
   * Whether most records of the last pages were not here (see `noteFound`): a page then reads its
   * records with its keys, in one statement, rather than after them.
   */
  readonly mostlyMissing: boolean;
  /** Counts a page's records: how many were asked for and how many of them this cache held. */
  noteFound(held: number, asked: number): void;
  /** Bytes of JSON held. */
  readonly size: number;
}

export interface RecordCacheOptions {
  /** Most bytes of JSON (UTF-8) held. */
  maxBytes: number;
  ttlMs?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 5 * 60_000;

/** Both families in one cache, keyed by number (no key strings built per read): the low bit is the family. */
const keyOf = (table: RecordTable, sequence: number) => sequence * 2 + (table === 'tx' ? 0 : 1);

/**
 * The record in memory of its own. A slice of a larger buffer (zlib's 16 KB output chunk, an 8 KB pool
 * slab) keeps all of it alive while the cache counts the slice: records from zlib's one-shot inflate
 * held 3 to 7 times what the cache counted.
 */
function owned(json: Buffer): Buffer {
  if (json.buffer.byteLength <= json.byteLength + OWN_SLACK) return json;
  const copy = Buffer.allocUnsafeSlow(json.byteLength);
  json.copy(copy);
  return copy;
}

const GHOST_MIN_WEIGHT = 1024;

/** Weight of the last page in the held share `mostlyMissing` follows (about the last 10 pages count). */
const FOUND_WEIGHT = 0.1;

/** Bytes past a record that its buffer may hold and still count as its own (a spare byte zlib needs). */
const OWN_SLACK = 64;

export function createRecordCache(options: RecordCacheOptions): RecordCache {
  const records = createByteLru<number, Buffer>({
    maxBytes: options.maxBytes,
    sizeOf: (json) => json.byteLength,
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    now: options.now,
  });
  // Keys of records offered and not kept, weighted by their length: the last `maxBytes` of them. At
  // least 1 KB each, so the ghost list holds at most maxBytes / 1 KB keys (~100 bytes of memory each).
  const ghosts = createByteLru<number, number>({
    maxBytes: options.maxBytes,
    sizeOf: (bytes) => Math.max(bytes, GHOST_MIN_WEIGHT),
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    now: options.now,
  });
  // The share of the records pages asked for that were here, over the last pages; a cache starts empty.
  let heldShare = 0;
  // Records being read, by key: the read (of a whole page's missing records) that will answer them.
  const reading = new Map<number, Promise<Map<number, Buffer>>>();
  const cache: RecordCache = {
    get: (table, sequence) => records.get(keyOf(table, sequence)),
    async load(table, sequences, read) {
      const found = new Map<number, Buffer>();
      // Per read awaited, the records wanted from it: one continuation per read, not per record.
      let others: Map<Promise<Map<number, Buffer>>, number[]> | undefined;
      const missing: number[] = [];
      for (const sequence of sequences) {
        const key = keyOf(table, sequence);
        const json = records.get(key);
        if (json !== undefined) found.set(sequence, json);
        else {
          const inFlight = reading.get(key);
          if (inFlight === undefined) missing.push(sequence);
          else {
            others ??= new Map();
            const wanted = others.get(inFlight);
            if (wanted) wanted.push(sequence);
            else others.set(inFlight, [sequence]);
          }
        }
      }
      cache.noteFound(found.size, sequences.length);
      const waits: Array<Promise<void>> = [];
      for (const [inFlight, wanted] of others ?? []) {
        waits.push(
          inFlight.then((rows) => {
            for (const sequence of wanted) {
              const json = rows.get(sequence);
              if (json === undefined) continue;
              found.set(sequence, json);
              // A second page read it: as good a second read as its own would have been.
              cache.offer(table, sequence, json);
            }
          }),
        );
      }
      // Handled here too, so that an error of theirs is not unhandled should this read fail first.
      const waited = Promise.all(waits);
      waited.catch(() => undefined);
      if (missing.length > 0) {
        const rows = read(missing);
        for (const sequence of missing) reading.set(keyOf(table, sequence), rows);
        const settled = () => {
          for (const sequence of missing) {
            const key = keyOf(table, sequence);
            if (reading.get(key) === rows) reading.delete(key);
          }
        };
        rows.then(settled, settled);
        for (const [sequence, json] of await rows) {
          found.set(sequence, json);
          cache.offer(table, sequence, json);
        }
      }
      await waited;
      return found;
    },
    offer(table, sequence, json) {
      const key = keyOf(table, sequence);
      if (!ghosts.has(key)) {
        ghosts.set(key, json.byteLength);
        return false;
      }
      ghosts.delete(key);
      records.set(key, owned(json));
      return true;
    },
    set(table, sequence, json) {
      records.set(keyOf(table, sequence), owned(json));
    },
    get mostlyMissing() {
      return heldShare < 0.5;
    },
    noteFound(held, asked) {
      if (asked > 0) heldShare += FOUND_WEIGHT * (held / asked - heldShare);
    },
    get size() {
      return records.calculatedSize;
    },
  };
  return cache;
}
