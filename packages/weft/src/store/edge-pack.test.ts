import { describe, expect, it } from 'vitest';
import type { Db } from './db.js';
import { appendEdges, type Edges, PACK_SIZE } from './edge-pack.js';
import { packedKeys } from './read/packed-keys.js';
import type { PageRequest } from './read/page.js';
import { readSequencePage, type SequenceCursor } from './read/sequence-page.js';
import { testBackends, useTestDb } from './test-support/backends.js';

const backends = await testBackends();

/**
 * Edges of three accounts in sequence order: account 1 in most txs (well over two packs), account 2
 * in exactly one pack's worth, account 3 in a few. Msg set 7 on every third sequence, else 8.
 */
function chainEdges(): Edges & { set: number[] } {
  const edges = { account: [] as number[], sequence: [] as number[], set: [] as number[] };
  for (let sequence = 1; sequence <= 200; sequence++) {
    const accounts = [
      ...(sequence % 5 === 0 ? [] : [1]),
      ...(sequence % 3 === 0 && sequence <= 3 * PACK_SIZE ? [2] : []),
      ...(sequence % 50 === 0 ? [3] : []),
    ];
    for (const account of accounts) {
      edges.account.push(account);
      edges.sequence.push(sequence);
      edges.set.push(sequence % 3 === 0 ? 7 : 8);
    }
  }
  return edges;
}

/** The edges cut into batches that end after the given sequences. */
function batches(edges: Edges & { set: number[] }, ends: number[]): Array<Edges & { set: number[] }> {
  const out: Array<Edges & { set: number[] }> = [];
  let start = 0;
  for (const end of [...ends, Number.POSITIVE_INFINITY]) {
    let stop = start;
    while (stop < edges.sequence.length && edges.sequence[stop]! <= end) stop++;
    if (stop > start) {
      out.push({
        account: edges.account.slice(start, stop),
        sequence: edges.sequence.slice(start, stop),
        set: edges.set.slice(start, stop),
      });
    }
    start = stop;
  }
  return out;
}

const packs = (db: Db) =>
  db.query<{ account_id: string; first_sequence: string; sequences: string[]; msg_set_ids: number[] }>(
    'SELECT * FROM tx_account_pack ORDER BY account_id, first_sequence',
  );

describe.each(backends)('packed account edges on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('packs the same rows however the edges are batched, and unpacks to the edges written', async () => {
    const edges = chainEdges();
    const layouts: unknown[] = [];
    for (const ends of [[], [1, 2, 3, 64, 65, 130], Array.from({ length: 200 }, (_, i) => i + 1)]) {
      const db = await testDb.fresh();
      for (const batch of batches(edges, ends)) {
        await db.transaction((tx) => appendEdges(tx, 'tx_account_pack', batch));
      }
      const rows = await packs(db);
      for (const account of ['1', '2', '3']) {
        const sizes = rows.filter((r) => r.account_id === account).map((r) => r.sequences.length);
        // Full packs, then the account's last one.
        expect(sizes.slice(0, -1).every((n) => n === PACK_SIZE)).toBe(true);
        expect(sizes.at(-1)).toBeGreaterThan(0);
      }
      const unpacked = await db.query<{ account_id: string; sequence: string; msg_set_id: number }>(
        'SELECT account_id, sequence, msg_set_id FROM tx_account ORDER BY sequence, account_id',
      );
      expect(unpacked.map((e) => [Number(e.account_id), Number(e.sequence), e.msg_set_id])).toEqual(
        edges.account.map((a, i) => [a, edges.sequence[i], edges.set[i]]),
      );
      layouts.push(rows);
    }
    expect(layouts[1]).toEqual(layouts[0]);
    expect(layouts[2]).toEqual(layouts[0]);
    expect((layouts[0] as unknown[]).length).toBe(3 + 1 + 1);
  });

  it('pages an account through its packs both ways, by cursor and by offset, filtered or not', async () => {
    const db = await testDb.fresh();
    const edges = chainEdges();
    for (const batch of batches(edges, [10, 100])) {
      await db.transaction((tx) => appendEdges(tx, 'tx_account_pack', batch));
    }
    await db.query(`INSERT INTO account (id, address) VALUES (1, '\\x01'), (2, '\\x02'), (3, '\\x03')`);
    const page = (account: number, request: PageRequest<SequenceCursor>, set?: number) =>
      readSequencePage(
        db,
        request,
        (q) => ({
          page: packedKeys(
            q,
            'tx_account_pack',
            q.accountId(Buffer.from([account])),
            set === undefined ? undefined : `e.msg_set_id = ${q.params.add(set)}`,
          ),
          total: 'SELECT 0',
        }),
        (row) => Number(row.sequence),
      );
    for (const account of [1, 2, 3]) {
      for (const set of [undefined, 7]) {
        const expected = edges.sequence.filter(
          (_, i) => edges.account[i] === account && (set === undefined || edges.set[i] === set),
        );
        for (const descending of [true, false]) {
          const order = descending ? [...expected].reverse() : expected;
          for (const limit of [1, 7, 64, 100]) {
            const walked: number[] = [];
            let after: SequenceCursor | undefined;
            for (let guard = 0; guard < 300; guard++) {
              const p = await page(account, { after, offset: 0, limit, descending, countTotal: false }, set);
              walked.push(...p.rows);
              if (!p.next) break;
              after = p.next;
            }
            expect(walked).toEqual(order);
            const offset = Math.min(70, order.length);
            const skipped = await page(account, { offset, limit, descending, countTotal: false }, set);
            expect(skipped.rows).toEqual(order.slice(offset, offset + limit));
          }
        }
      }
    }
  });
});
