import { describe, expect, it } from 'vitest';
import type { Db } from '../store/db.js';
import { useTestDb } from '../store/test-support/backends.js';
import { createIndexedHead } from './indexed-head.js';

/** The indexed height the response cache measures lists against, on a store whose progress moves. */
describe('createIndexedHead', () => {
  const testDb = useTestDb('pglite');

  async function store() {
    const db = await testDb.fresh();
    let reads = 0;
    const counted: Db = {
      ...db,
      query: (sql, params) => {
        if (/progress/.test(sql)) reads += 1;
        return db.query(sql, params);
      },
    };
    const setHeight = (height: number) =>
      db.query(
        `INSERT INTO progress (name, height) VALUES ('block', $1)
         ON CONFLICT (name) DO UPDATE SET height = excluded.height`,
        [height],
      );
    return { db: counted, reads: () => reads, setHeight };
  }

  it('shares one read between concurrent callers and keeps it for its age', async () => {
    const { db, reads, setHeight } = await store();
    await setHeight(7);
    const head = createIndexedHead(db, 60_000);
    expect(await Promise.all(Array.from({ length: 10 }, () => head.height()))).toEqual(Array(10).fill(7));
    expect(reads()).toBe(1);
    await setHeight(8);
    expect(await head.height()).toBe(7);
    expect(reads()).toBe(1);
  });

  it('answers heightAfter only from a read begun after the given moment', async () => {
    const { db, reads, setHeight } = await store();
    await setHeight(7);
    const head = createIndexedHead(db, 60_000);
    expect(await head.height()).toBe(7);
    await setHeight(8);
    const now = performance.now();
    // The height known (7) was read before `now`: the store is asked again, once for all callers.
    expect(await Promise.all(Array.from({ length: 10 }, () => head.heightAfter(now)))).toEqual(
      Array(10).fill(8),
    );
    expect(reads()).toBe(2);
    // That read is now the known height, and it began after `now`.
    expect(await head.heightAfter(now)).toBe(8);
    expect(await head.height()).toBe(8);
    expect(reads()).toBe(2);
  });
});
