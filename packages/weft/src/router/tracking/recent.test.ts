import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../store/db.js';
import { loadMigrations, migrate } from '../../store/migrate.js';
import { useTestDb } from '../../store/test-support/backends.js';
import { createTransferStore, migrateTracking } from './transfer-store.js';

/**
 * The store's query of `GET /v2/tx/recent` on both back ends: a store made before it (migrations 0001 and
 * 0002) migrates in place; the newest first, a limit, a source chain and a state filter, each served by an
 * index rather than a scan of the table (test/router-recent.test.ts runs the route on a devnet).
 */

const hash = () => randomBytes(32).toString('hex');

/** The plan of a query with sequential scans priced out: which index, if any, can serve it. */
async function plan(db: Db, sql: string, params: unknown[]): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_seqscan = off');
    const rows = await tx.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
    return rows.map((r) => Object.values(r).join(' ')).join('\n');
  });
}

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`recently tracked transfers on ${backend}`, () => {
    const testDb = useTestDb(backend);

    it('migrates a store made before in place, then answers the newest first, filtered and limited', async () => {
      const db = await testDb.fresh({ migrate: false });
      const before = (await loadMigrations(new URL('./migrations/', import.meta.url))).filter(
        (m) => m.version < 3,
      );
      await migrate(db, before);
      const store = createTransferStore(db);
      // Tracked in this order: a1 b1 a2 a3 b2 (chains a and b), then a2 and b2 completed.
      const tracked: { chain: string; hash: string }[] = [];
      for (const chain of ['a-1', 'b-1', 'a-1', 'a-1', 'b-1']) {
        const h = hash();
        await store.track(chain, h);
        tracked.push({ chain, hash: h });
      }
      expect(
        (await migrate(db, await loadMigrations(new URL('./migrations/', import.meta.url)))).applied,
      ).toEqual([3, 4]);
      await migrateTracking(db);
      for (const i of [2, 4])
        await db.query(
          `UPDATE tracked_transfer SET state = 'STATE_COMPLETED_SUCCESS', terminal = true, updated_at = now() + interval '1 s'
           WHERE tx_hash = $1`,
          [tracked[i]!.hash],
        );

      const newest = [...tracked].reverse().map((t) => t.hash);
      const hashes = async (query: Parameters<typeof store.recent>[0]) =>
        (await store.recent(query)).map((t) => t.txHash);
      expect(await hashes({ limit: 20 })).toEqual(newest);
      expect(await hashes({ limit: 2 })).toEqual(newest.slice(0, 2));
      expect(await hashes({ limit: 20, chainId: 'a-1' })).toEqual([3, 2, 0].map((i) => tracked[i]!.hash));
      expect(await hashes({ limit: 1, chainId: 'b-1' })).toEqual([tracked[4]!.hash]);
      expect(await hashes({ limit: 20, state: 'STATE_COMPLETED_SUCCESS' })).toEqual(
        [4, 2].map((i) => tracked[i]!.hash),
      );
      expect(await hashes({ limit: 20, state: 'STATE_SUBMITTED', chainId: 'a-1' })).toEqual(
        [3, 0].map((i) => tracked[i]!.hash),
      );
      expect(await hashes({ limit: 20, chainId: 'c-1' })).toEqual([]);
      expect(await hashes({ limit: 20, state: 'STATE_ABANDONED' })).toEqual([]);

      const [done] = await store.recent({ limit: 1, state: 'STATE_COMPLETED_SUCCESS' });
      expect(done).toMatchObject({ chainId: 'b-1', state: 'STATE_COMPLETED_SUCCESS' });
      const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
      expect(done!.createdAt).toMatch(rfc3339);
      expect(done!.updatedAt).toMatch(rfc3339);
      expect(Date.parse(done!.updatedAt)).toBeGreaterThan(Date.parse(done!.createdAt));
    });

    it('reads an index for each filter, not the whole table', async () => {
      const db = await testDb.fresh({ migrate: false });
      await migrateTracking(db);
      const select = (where: string) => `SELECT id FROM tracked_transfer ${where} ORDER BY id DESC LIMIT 20`;
      expect(await plan(db, select(''), [])).toMatch(
        /Index( Only)? Scan Backward using tracked_transfer_pkey/,
      );
      expect(await plan(db, select('WHERE chain_id = $1'), ['a-1'])).toMatch(
        /tracked_transfer_recent_by_chain/,
      );
      expect(await plan(db, select('WHERE state = $1'), ['STATE_PENDING'])).toMatch(
        /tracked_transfer_recent_by_state/,
      );
    });
  });
}
