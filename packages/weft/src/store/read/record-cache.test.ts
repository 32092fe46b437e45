import { describe, expect, it } from 'vitest';
import type { Db } from '../db.js';
import { decodeRecord, encodeRecord, recordJsonBytes } from '../record-codec.js';
import { testBackends, useTestDb } from '../test-support/backends.js';
import { EVM_CHAIN, syntheticChain } from '../test-support/chain.js';
import { createBlockWriter } from '../writer.js';
import { listEvmTxs } from './evm-txs.js';
import type { PageRequest } from './page.js';
import { createRecordCache } from './record-cache.js';
import type { SequenceCursor } from './sequence-page.js';
import { listTxs, txsByAccount } from './txs.js';

/** Records as UTF-8 bytes. */
const b = (json: string) => Buffer.from(json);

/**
 * A cache whose records are held as their text (no codec) and count for their length alone, so what it
 * counts is the texts' length.
 */
const createPlainCache = (options: Parameters<typeof createRecordCache>[0]) =>
  createRecordCache({
    ...options,
    decode: (stored) => Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength),
    entryBytes: 0,
  });

describe('record cache', () => {
  it('holds records as the store keeps them, and gives their JSON text', () => {
    const cache = createRecordCache({ maxBytes: 10_000 });
    const json = JSON.stringify({ body: { messages: Array.from({ length: 20 }, (_, i) => ({ n: i })) } });
    const stored = encodeRecord(json);
    expect(stored.byteLength).toBeLessThan(json.length / 2);
    cache.set('tx', 1, stored);
    expect(recordJsonBytes(cache.get('tx', 1)!).toString()).toBe(json);
    // Its bytes, and what the entry takes besides.
    expect(cache.size).toBeGreaterThan(stored.byteLength + 100);
    expect(cache.size).toBeLessThan(stored.byteLength + 1000);
    expect(decodeRecord(stored)).toBe(json);
  });

  it('forgets the least recently used records first once over its size', () => {
    const cache = createPlainCache({ maxBytes: 10 });
    cache.set('tx', 1, b('"aaaa"'));
    cache.set('tx', 2, b('"bb"'));
    expect(cache.get('tx', 1)).toEqual(b('"aaaa"'));
    // 6 + 4 + 3 > 10: record 2 (least recently used) goes.
    cache.set('tx', 3, b('"c"'));
    expect(cache.get('tx', 2)).toBeUndefined();
    expect(cache.get('tx', 1)).toEqual(b('"aaaa"'));
    expect(cache.get('tx', 3)).toEqual(b('"c"'));
    expect(cache.size).toBe(9);
  });

  it('forgets the least recently used record of either family', () => {
    const cache = createPlainCache({ maxBytes: 8 });
    cache.set('tx', 1, b('"aa"'));
    cache.set('evm_tx', 1, b('"bb"'));
    expect(cache.get('tx', 1)).toEqual(b('"aa"'));
    cache.set('tx', 2, b('"cc"'));
    expect(cache.get('evm_tx', 1)).toBeUndefined();
    expect(cache.get('tx', 1)).toEqual(b('"aa"'));
    cache.set('evm_tx', 2, b('"dd"'));
    expect(cache.get('tx', 2)).toBeUndefined();
    expect([cache.get('tx', 1), cache.get('evm_tx', 2), cache.size]).toEqual([b('"aa"'), b('"dd"'), 8]);
  });

  it('reads a record once while pages wait for it, and shares a failed read without keeping it', async () => {
    const cache = createPlainCache({ maxBytes: 1000 });
    const asked: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = async (missing: number[]) => {
      asked.push(missing);
      await gate;
      return new Map(missing.map((n) => [n, b(`"${n}"`)]));
    };
    const one = cache.load('tx', [1, 2, 3], read);
    const two = cache.load('tx', [2, 3, 4], read);
    release();
    const [first, second] = await Promise.all([one, two]);
    expect(asked).toEqual([[1, 2, 3], [4]]);
    expect([[...first.keys()].sort(), [...second.keys()].sort()]).toEqual([
      [1, 2, 3],
      [2, 3, 4],
    ]);
    expect(second.get(3)).toEqual(b('"3"'));

    const failing = async (missing: number[]) => {
      asked.push(missing);
      throw new Error('store down');
    };
    const results = await Promise.allSettled([
      cache.load('evm_tx', [7], failing),
      cache.load('evm_tx', [7], failing),
    ]);
    expect(results.map((r) => r.status === 'rejected' && (r.reason as Error).message)).toEqual([
      'store down',
      'store down',
    ]);
    expect((await cache.load('evm_tx', [7], read)).get(7)).toEqual(b('"7"'));
    expect(asked.slice(2)).toEqual([[7], [7]]);
  });

  it('keeps the families apart, skips records larger than itself, and expires entries', () => {
    let now = 1;
    const cache = createPlainCache({ maxBytes: 100, ttlMs: 1000, now: () => now });
    cache.set('tx', 1, b('{"cosmos":1}'));
    cache.set('evm_tx', 1, b('{"evm":1}'));
    cache.set('tx', 2, b('x'.repeat(101)));
    expect(cache.get('tx', 1)).toEqual(b('{"cosmos":1}'));
    expect(cache.get('evm_tx', 1)).toEqual(b('{"evm":1}'));
    expect(cache.get('tx', 2)).toBeUndefined();
    now = 1002; // lru-cache: stale once older than the TTL
    expect(cache.get('tx', 1)).toBeUndefined();
    expect(cache.size).toBe('{"evm":1}'.length);
  });

  it('keeps an offered record when it was offered before within its reach', () => {
    const cache = createPlainCache({ maxBytes: 3000 });
    const record = (n: number) => Buffer.from(`{"n":${n}}`.padEnd(1000, ' '));
    expect(cache.offer('tx', 1, record(1))).toBe(false);
    expect([cache.get('tx', 1), cache.size]).toEqual([undefined, 0]);
    expect(cache.offer('tx', 1, record(1))).toBe(true);
    expect([cache.get('tx', 1), cache.size]).toEqual([record(1), 1000]);
    // Out of reach: three other records (3,000 bytes) offered since 2 was.
    expect(cache.offer('evm_tx', 2, record(2))).toBe(false);
    for (const n of [3, 4, 5]) cache.offer('tx', n, record(n));
    expect(cache.offer('evm_tx', 2, record(2))).toBe(false);
    expect(cache.get('evm_tx', 2)).toBeUndefined();
    // Within reach (5 is a record back): kept; the families stay apart.
    expect(cache.offer('tx', 5, record(5))).toBe(true);
    expect(cache.offer('evm_tx', 5, record(5))).toBe(false);
    expect(cache.size).toBe(2000);
  });

  it('keeps a record in memory of its own, so what it counts is what it holds', () => {
    const cache = createPlainCache({ maxBytes: 1000 });
    // As a driver's read returns it: a slice of a larger buffer.
    const chunk = Buffer.alloc(16 * 1024, 'x');
    chunk.write('{"tx":1}', 100);
    cache.set('tx', 1, chunk.subarray(100, 108));
    const kept = cache.get('tx', 1) as Buffer;
    expect([kept.toString(), kept.buffer.byteLength, cache.size]).toEqual(['{"tx":1}', 8, 8]);
    // A buffer of the record's own size is kept as it is.
    const own = Buffer.allocUnsafeSlow(8);
    own.write('{"tx":2}');
    cache.set('tx', 2, own);
    expect((cache.get('tx', 2) as Buffer).buffer).toBe(own.buffer);
  });
});

const backends = await testBackends();

describe.each(backends)('pages of records on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('are the same with the record cache, cold and warm, as without it', async () => {
    const db = await testDb.fresh();
    const chain = syntheticChain({
      blocks: 12,
      txsPerBlock: 5,
      accountsPerTx: 3,
      accounts: 9,
      seed: 5,
      evm: true,
    });
    await createBlockWriter(db, EVM_CHAIN).writeBlocks(chain);
    const account = chain[3]!.txs[1]!.signer;
    const cache = createRecordCache({ maxBytes: 1_000_000 });

    /** Every page of a list, by cursor. */
    const walk = async <R>(
      read: (
        request: PageRequest<SequenceCursor>,
      ) => Promise<{ rows: R[]; next: SequenceCursor | null; total: string | null }>,
    ) => {
      const pages = [];
      let after: SequenceCursor | undefined;
      do {
        const page = await read({ after, offset: 0, limit: 7, descending: true, countTotal: true });
        pages.push(page);
        after = page.next ?? undefined;
      } while (after);
      return pages;
    };
    const reads = [
      (cached: boolean) => walk((r) => listTxs(db, {}, r, cached ? cache : undefined)),
      (cached: boolean) =>
        walk((r) => txsByAccount(db, { account, signer: false }, r, cached ? cache : undefined)),
      (cached: boolean) => walk((r) => listEvmTxs(db, r, cached ? cache : undefined)),
    ];
    for (const read of reads) {
      const plain = await read(false);
      expect(plain.flatMap((p) => p.rows).length).toBeGreaterThan(7);
      expect(await read(true)).toEqual(plain);
      expect(await read(true)).toEqual(plain);
    }
    expect(cache.size).toBeGreaterThan(0);
  });

  it('read their records with the keys while the cache lacks most, and only the missing ones once it holds them', async () => {
    const db = await testDb.fresh();
    const chain = syntheticChain({ blocks: 12, txsPerBlock: 5, accountsPerTx: 3, accounts: 9, seed: 7 });
    await createBlockWriter(db, EVM_CHAIN).writeBlocks(chain);
    const statements: string[] = [];
    const counted: Db = {
      ...db,
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
    };
    const cache = createRecordCache({ maxBytes: 1_000_000 });
    const first = { offset: 0, limit: 10, descending: true, countTotal: true };
    const plain = await listTxs(db, {}, first);
    for (let i = 0; i < 20; i++) expect(await listTxs(counted, {}, first, cache)).toEqual(plain);
    // One statement a page: keys and records together while the cache is cold, then keys alone.
    expect(statements.length).toBe(20);
    const withRecords = statements.filter((sql) => /\brecord\b/.test(sql)).length;
    expect(withRecords).toBeGreaterThan(2);
    expect(withRecords).toBeLessThan(20);
    expect(statements.at(-1)).not.toMatch(/\brecord\b/);
    // Half of the next page is held: its keys, then the other half by key.
    statements.length = 0;
    const shifted = { ...first, offset: 5 };
    expect(await listTxs(counted, {}, shifted, cache)).toEqual(await listTxs(db, {}, shifted));
    expect(statements.length).toBe(2);
    expect(statements[1]).toMatch(/sequence = ANY/);
  });

  it("keep a page's records from its second read on, and never those of pages read once", async () => {
    const db = await testDb.fresh();
    const chain = syntheticChain({ blocks: 12, txsPerBlock: 5, accountsPerTx: 3, accounts: 9, seed: 6 });
    await createBlockWriter(db, EVM_CHAIN).writeBlocks(chain);
    const cache = createRecordCache({ maxBytes: 1_000_000 });
    // What the cache counts: the records as stored, and each entry's own.
    const entry = createRecordCache({ maxBytes: 10_000 });
    entry.set('tx', 0, Buffer.alloc(0));
    const bytes = async (rows: Array<{ sequence: number }>) => {
      const [row] = await db.query<{ n: string }>(
        'SELECT sum(octet_length(record)) AS n FROM tx WHERE sequence = ANY($1::int8[])',
        [rows.map((r) => r.sequence)],
      );
      return Number(row!.n) + rows.length * entry.size;
    };
    // A walk of every page, once: the cache stays empty.
    const first = { offset: 0, limit: 10, descending: true, countTotal: true };
    let after: SequenceCursor | undefined;
    let walked = 0;
    do {
      const page = await listTxs(db, {}, { ...first, after }, cache);
      walked += page.rows.length;
      after = page.next ?? undefined;
    } while (after);
    expect([walked, cache.size]).toEqual([60, 0]);
    // The first page again (its records were read before, within reach): kept, and then served.
    const plain = await listTxs(db, {}, first);
    expect(await listTxs(db, {}, first, cache)).toEqual(plain);
    expect(cache.size).toBe(await bytes(plain.rows));
    expect(await listTxs(db, {}, first, cache)).toEqual(plain);
    expect(cache.size).toBe(await bytes(plain.rows));
  });
});
