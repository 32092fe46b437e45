import { describe, expect, it } from 'vitest';
import { testBackends, useTestDb } from '../test-support/backends.js';
import { syntheticChain } from '../test-support/chain.js';
import { createBlockWriter } from '../writer.js';
import { listEvmTxs } from './evm-txs.js';
import type { PageRequest } from './page.js';
import { createRecordCache } from './record-cache.js';
import type { SequenceCursor } from './sequence-page.js';
import { listTxs, txsByAccount } from './txs.js';

describe('record cache', () => {
  it('forgets the least recently used records first once over its size', () => {
    const cache = createRecordCache({ maxChars: 10 });
    cache.set('tx', 1, '"aaaa"');
    cache.set('tx', 2, '"bb"');
    expect(cache.get('tx', 1)).toBe('"aaaa"');
    // 6 + 4 + 3 > 10: record 2 (least recently used) goes.
    cache.set('tx', 3, '"c"');
    expect(cache.get('tx', 2)).toBeUndefined();
    expect(cache.get('tx', 1)).toBe('"aaaa"');
    expect(cache.get('tx', 3)).toBe('"c"');
    expect(cache.size).toBe(9);
  });

  it('forgets the least recently used record of either family', () => {
    const cache = createRecordCache({ maxChars: 8 });
    cache.set('tx', 1, '"aa"');
    cache.set('evm_tx', 1, '"bb"');
    expect(cache.get('tx', 1)).toBe('"aa"');
    cache.set('tx', 2, '"cc"');
    expect(cache.get('evm_tx', 1)).toBeUndefined();
    expect(cache.get('tx', 1)).toBe('"aa"');
    cache.set('evm_tx', 2, '"dd"');
    expect(cache.get('tx', 2)).toBeUndefined();
    expect([cache.get('tx', 1), cache.get('evm_tx', 2), cache.size]).toEqual(['"aa"', '"dd"', 8]);
  });

  it('keeps the families apart, skips records larger than itself, and expires entries', () => {
    let now = 1;
    const cache = createRecordCache({ maxChars: 100, ttlMs: 1000, now: () => now });
    cache.set('tx', 1, '{"cosmos":1}');
    cache.set('evm_tx', 1, '{"evm":1}');
    cache.set('tx', 2, 'x'.repeat(101));
    expect(cache.get('tx', 1)).toBe('{"cosmos":1}');
    expect(cache.get('evm_tx', 1)).toBe('{"evm":1}');
    expect(cache.get('tx', 2)).toBeUndefined();
    now = 1002; // lru-cache: stale once older than the TTL
    expect(cache.get('tx', 1)).toBeUndefined();
    expect(cache.size).toBe('{"evm":1}'.length);
  });
});

const backends = await testBackends();
const CHAIN = { chainId: 'minievm-1', vm: 'evm', bech32Prefix: 'init' } as const;

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
    await createBlockWriter(db, CHAIN).writeBlocks(chain);
    const account = chain[3]!.txs[1]!.signer;
    const cache = createRecordCache({ maxChars: 1_000_000 });

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

  it('read through the cache without filling it when a page misses many records', async () => {
    const db = await testDb.fresh();
    const chain = syntheticChain({ blocks: 12, txsPerBlock: 5, accountsPerTx: 3, accounts: 9, seed: 6 });
    await createBlockWriter(db, CHAIN).writeBlocks(chain);
    const cache = createRecordCache({ maxChars: 1_000_000 });
    const request = { offset: 0, limit: 40, descending: false, countTotal: true };
    const plain = await listTxs(db, {}, request);
    expect(plain.rows).toHaveLength(40);
    expect(await listTxs(db, {}, request, cache)).toEqual(plain);
    expect(cache.size).toBe(0);
    // A small page fills it; the large page then takes those records from it and reads the rest.
    const first = await listTxs(db, {}, { ...request, limit: 5 }, cache);
    expect(cache.size).toBe(first.rows.reduce((n, row) => n + row.json.length, 0));
    expect(await listTxs(db, {}, request, cache)).toEqual(plain);
  });
});
