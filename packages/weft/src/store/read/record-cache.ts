import { createByteLru } from '../../common/lru.js';
import { type RecordJson, recordJson } from '../record-codec.js';

/**
 * Stored tx and EVM tx records by sequence, kept in the reading process. A record never changes once
 * its batch is committed, so a page reads its keys (and total) from the store and only the records
 * this cache lacks. Wallets poll the newest page of the same accounts over and over; those records
 * stay here while the keys query stays exact.
 *
 * Records are held as the store keeps them (compressed, about a fifth of their JSON) and inflated when
 * a page's answer is written, straight into it (about 4 µs for a 2.3 KB record). Held as JSON, 64 MB
 * kept the records of 270 100-record pages; the polled pages of the API bench's 1,000 accounts (230 MB
 * of JSON) never fitted, so every one of them read its records from the store, where each record is a
 * heap page of its own. Held compressed, with what each entry takes besides, they take 72 MB. The pages
 * polled hardest are the response cache's.
 *
 * Bounded by the bytes held (the stored records' and each entry's own), least recently used out first.
 * Entries also expire after `ttlMs`: a store wiped and rebuilt under a running reader reuses sequences,
 * and the TTL bounds how long an old record could be served for a reused one.
 *
 * A record read from the store is kept only when it is read again within the cache's reach (`offer`): a
 * ghost list remembers the keys of the last `maxBytes` of records offered and not kept, and a record
 * offered again while its key is there goes in. A record read once (a deep walk, an export) never pushes
 * out the hot ones, and records whose reads come back further apart than the cache could keep them are
 * not churned through it: with 1,000 accounts' 100-record pages read in turn against a cache of a quarter
 * of them, keeping each page's records on every read doubled the API's CPU per page (old-generation
 * collections of the records pushed out), for the fifth of them still there when their page came back.
 */

export type RecordTable = 'tx' | 'evm_tx';

export interface RecordCache {
  /** The record's JSON text, when held. */
  get(table: RecordTable, sequence: number): RecordJson | undefined;
  /**
   * A record read from the store, as stored: kept when it was offered before within reach; whether it
   * was kept.
   */
  offer(table: RecordTable, sequence: number, stored: Uint8Array): boolean;
  /** Keeps a stored record whatever its reads. */
  set(table: RecordTable, sequence: number, stored: Uint8Array): void;
  /**
   * The JSON text of the records of `sequences`: those this cache holds, and the others through `read`
   * (stored records, which are offered). One store read per record at a time: a record another page is
   * reading is awaited, and that read's error is every waiter's; nothing of a failed read is kept. A
   * record the store lacks is absent from the answer.
   */
  load(
    table: RecordTable,
    sequences: readonly number[],
    read: (missing: number[]) => Promise<Map<number, Uint8Array>>,
  ): Promise<Map<number, RecordJson>>;
  /**
   * Whether most records of the last pages were not here (see `noteFound`): a page then reads its
   * records with its keys, in one statement, rather than after them.
   */
  readonly mostlyMissing: boolean;
  /** Counts a page's records: how many were asked for and how many of them this cache held. */
  noteFound(held: number, asked: number): void;
  /** Bytes held: the stored records' and what each entry takes besides. */
  readonly size: number;
}

export interface RecordCacheOptions {
  /** Most bytes held (the stored records', and what each entry takes besides). */
  maxBytes: number;
  /** A stored record's JSON text (default: the store's record codec). */
  decode?: (stored: Uint8Array) => RecordJson;
  /** Bytes counted for each record beyond its own (default: what its objects take). */
  entryBytes?: number;
  ttlMs?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 5 * 60_000;

/** Both families in one cache, keyed by number (no key strings built per read): the low bit is the family. */
const keyOf = (table: RecordTable, sequence: number) => sequence * 2 + (table === 'tx' ? 0 : 1);

/**
 * The record in memory of its own. A slice of a larger buffer (a driver's read buffer, an 8 KB pool
 * slab) keeps all of it alive while the cache counts the slice: records from zlib's one-shot inflate,
 * when the cache held them inflated, kept 3 to 7 times what it counted.
 */
function owned(stored: Uint8Array): Uint8Array {
  if (stored.buffer.byteLength <= stored.byteLength + OWN_SLACK) return stored;
  const copy = new Uint8Array(stored.byteLength);
  copy.set(stored);
  return copy;
}

const GHOST_MIN_WEIGHT = 256;

/** Weight of the last page in the held share `mostlyMissing` follows (about the last 10 pages count). */
const FOUND_WEIGHT = 0.1;

/** Bytes past a record that its buffer may hold and still count as its own. */
const OWN_SLACK = 64;

/**
 * What a held record takes beyond its bytes: its buffer's objects and the LRU's bookkeeping (100,000
 * records of 450 bytes: 43 MB of bytes, 70 MB of heap and buffers). Counted, so that the cache's bound
 * is its memory: with records this small, their bytes alone undercounted it by two fifths.
 */
const ENTRY_BYTES = 288;

export function createRecordCache(options: RecordCacheOptions): RecordCache {
  const decode = options.decode ?? recordJson;
  const entryBytes = options.entryBytes ?? ENTRY_BYTES;
  const records = createByteLru<number, Uint8Array>({
    maxBytes: options.maxBytes,
    sizeOf: (stored) => stored.byteLength + entryBytes,
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    now: options.now,
  });
  // Keys of records offered and not kept, weighted by their stored length: the last `maxBytes` of them,
  // so the ghost list reaches as far back as the cache could hold. At least 256 bytes each (a stored
  // record is about 450), so it holds at most maxBytes / 256 keys (~100 bytes of memory each).
  const ghosts = createByteLru<number, number>({
    maxBytes: options.maxBytes,
    sizeOf: (bytes) => Math.max(bytes, GHOST_MIN_WEIGHT),
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    now: options.now,
  });
  // The share of the records pages asked for that were here, over the last pages; a cache starts empty.
  let heldShare = 0;
  // Records being read, by key: the read (of a whole page's missing records) that will answer them.
  const reading = new Map<number, Promise<Map<number, Uint8Array>>>();
  const held = (key: number) => {
    const stored = records.get(key);
    return stored === undefined ? undefined : decode(stored);
  };
  const cache: RecordCache = {
    get: (table, sequence) => held(keyOf(table, sequence)),
    async load(table, sequences, read) {
      const found = new Map<number, RecordJson>();
      // Per read awaited, the records wanted from it: one continuation per read, not per record.
      let others: Map<Promise<Map<number, Uint8Array>>, number[]> | undefined;
      const missing: number[] = [];
      for (const sequence of sequences) {
        const key = keyOf(table, sequence);
        const json = held(key);
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
              const stored = rows.get(sequence);
              if (stored === undefined) continue;
              found.set(sequence, decode(stored));
              // A second page read it: as good a second read as its own would have been.
              cache.offer(table, sequence, stored);
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
        for (const [sequence, stored] of await rows) {
          found.set(sequence, decode(stored));
          cache.offer(table, sequence, stored);
        }
      }
      await waited;
      return found;
    },
    offer(table, sequence, stored) {
      const key = keyOf(table, sequence);
      if (!ghosts.has(key)) {
        ghosts.set(key, stored.byteLength);
        return false;
      }
      ghosts.delete(key);
      records.set(key, owned(stored));
      return true;
    },
    set(table, sequence, stored) {
      records.set(keyOf(table, sequence), owned(stored));
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
