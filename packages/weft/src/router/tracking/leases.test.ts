import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { captureRecords } from '../../indexer/test-support/logger.js';
import type { Db } from '../../store/db.js';
import { useTestDb } from '../../store/test-support/backends.js';
import { createLeases } from './leases.js';
import { createTransferStore, migrateTracking, type TransferStore } from './transfer-store.js';

/**
 * Leases of two routers sharing one store, without a chain: one claims, the other finds nothing to take
 * while the leases hold; a router that stops hands its transfers over at once, one that dies once its
 * leases lapse; `maxHeld` splits the work; a restart under the same owner loads what it held; a row whose
 * progress does not read stays as it is, leased and logged once. On PGlite in-process, and on PostgreSQL
 * when it answers (its own database, dropped after).
 */

const hash = () => randomBytes(32).toString('hex');

/** A router's leases over its own view of the held ids (what the tracker keeps in `HeldTransfers`). */
function router(store: TransferStore, owner: string, options: { leaseMs?: number; maxHeld?: number } = {}) {
  const { logger, records } = captureRecords('info');
  const leases = createLeases({
    store,
    owner,
    leaseMs: options.leaseMs ?? 60_000,
    maxHeld: options.maxHeld ?? 100,
    logger,
  });
  const holding = new Set<string>();
  return {
    leases,
    holding,
    records,
    /** One round, applied to what the router holds; answers what changed. */
    async round() {
      const { lost, taken } = await leases.round(holding);
      for (const id of lost) holding.delete(id);
      for (const t of taken) holding.add(t.id);
      return { lost: [...lost].sort(), taken: taken.map((t) => t.id).sort() };
    },
  };
}

async function trackedStore(db: Db, count: number) {
  await migrateTracking(db);
  const store = createTransferStore(db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await store.track('a-1', hash())).transfer.id);
  return { store, ids: ids.sort() };
}

const owners = async (db: Db) =>
  (
    await db.query<{ id: string; owner: string | null }>(`SELECT id, owner FROM tracked_transfer ORDER BY id`)
  ).map((r) => [String(r.id), r.owner]);

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`leases shared by two routers on ${backend}`, () => {
    const testDb = useTestDb(backend);

    it('hands the transfers over when the holder stops, and takes them back once the leases lapse', async () => {
      const db = await testDb.fresh({ migrate: false });
      const { store, ids } = await trackedStore(db, 3);
      const a = router(store, 'router-a', { leaseMs: 1_000 });
      const b = router(store, 'router-b', { leaseMs: 1_000 });

      expect(await a.round()).toEqual({ lost: [], taken: ids });
      expect(await b.round()).toEqual({ lost: [], taken: [] });
      expect(await a.round()).toEqual({ lost: [], taken: [] });
      expect(a.leases.valid(Date.now())).toBe(true);

      // A clean stop: b takes everything at once.
      await a.leases.release();
      a.holding.clear();
      expect(await b.round()).toEqual({ lost: [], taken: ids });
      expect(new Set((await owners(db)).map(([, owner]) => owner))).toEqual(new Set(['router-b']));

      // b dies (stops renewing): its leases lapse and a claims them; b learns it lost them, and its
      // writes are refused meanwhile.
      await sleep(1_300);
      expect(b.leases.valid(Date.now())).toBe(false);
      expect(await a.round()).toEqual({ lost: [], taken: ids });
      const write = { id: ids[0]!, state: 'STATE_SUBMITTED' as const, progress: { hops: [], watch: {} } };
      expect(await store.advance('router-b', write, undefined, false)).toBe(false);
      expect(await store.advance('router-a', write, undefined, false)).toBe(true);
      expect(await b.round()).toEqual({ lost: ids, taken: [] });
      expect(b.holding.size).toBe(0);
    });

    it('splits the transfers by maxHeld, and a restart under the same owner loads what it held', async () => {
      const db = await testDb.fresh({ migrate: false });
      const { store, ids } = await trackedStore(db, 5);
      const a = router(store, 'router-a', { maxHeld: 2 });
      const b = router(store, 'router-b', { maxHeld: 10 });
      expect((await a.round()).taken).toEqual(ids.slice(0, 2));
      expect((await b.round()).taken).toEqual(ids.slice(2));
      expect((await a.round()).taken).toEqual([]);

      // A new process, same owner, nothing in memory: its leases are still its own.
      const restarted = router(store, 'router-a', { maxHeld: 2 });
      expect(await restarted.round()).toEqual({ lost: [], taken: ids.slice(0, 2) });
    });

    it('keeps a row whose progress does not read as it is, leased and logged once', async () => {
      const db = await testDb.fresh({ migrate: false });
      const { store, ids } = await trackedStore(db, 2);
      const broken = ids[0]!;
      const stored = `{"version": 1, "hops": "none", "watch": {}}`;
      await db.query(`UPDATE tracked_transfer SET progress = $2::jsonb WHERE id = $1`, [broken, stored]);

      const a = router(store, 'router-a');
      expect(await a.round()).toEqual({ lost: [], taken: [ids[1]!] });
      expect(await a.round()).toEqual({ lost: [], taken: [] });
      const warnings = a.records.filter((r) => r.msg.includes('does not read'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ id: broken, err: expect.stringMatching(/\/hops must be array/) });

      // Nobody else loops on it while a lives; after a stops, the next holder parks it in turn.
      const b = router(store, 'router-b');
      expect(await b.round()).toEqual({ lost: [], taken: [] });
      await a.leases.release();
      expect(await b.round()).toEqual({ lost: [], taken: [ids[1]!] });
      expect(b.records.filter((r) => r.msg.includes('does not read'))).toHaveLength(1);
      const [row] = await db.query<{ progress: unknown; owner: string }>(
        `SELECT progress, owner FROM tracked_transfer WHERE id = $1`,
        [broken],
      );
      expect(row).toEqual({ progress: JSON.parse(stored), owner: 'router-b' });
    });
  });
}
