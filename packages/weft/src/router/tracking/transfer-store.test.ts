import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../store/db.js';
import { useTestDb } from '../../store/test-support/backends.js';
import { data, ev, packet, started } from './test-support/evidence.js';
import { createTransferStore, migrateTracking } from './transfer-store.js';
import type { TransferProgress } from './types.js';

/**
 * The tracking table's queries: `track` is idempotent, `advance` writes only under a valid lease (an
 * advance goes to the audit, a note does not; a terminal state gives the lease up), `revive` puts an
 * abandoned transfer back in flight, and what is stored names its format's version. (`leases.test.ts`
 * covers renew, claim, load and release between routers; `unseen.test.ts` and `recent.test.ts` the rest.)
 */

const hash = () => randomBytes(32).toString('hex');
const steps = async (db: Db, id: string) =>
  (
    await db.query<{ version: number; state: string; step: string; owner: string }>(
      `SELECT version, state, step, owner FROM tracked_transfer_step WHERE transfer_id = $1 ORDER BY version`,
      [id],
    )
  ).map((s) => [s.version, s.step, s.owner]);
const row = async (db: Db, id: string) =>
  (
    await db.query<Record<string, unknown>>(
      `SELECT state, terminal, owner, version, progress, last_progress_at::text AS progressed FROM tracked_transfer WHERE id = $1`,
      [id],
    )
  )[0]!;

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`the tracking table on ${backend}`, () => {
    const testDb = useTestDb(backend);

    it('tracks a source tx once, and finds it without reading its progress', async () => {
      const db = await testDb.fresh({ migrate: false });
      await migrateTracking(db);
      const store = createTransferStore(db);
      const h = hash();
      const first = await store.track('a-1', h);
      expect(first).toMatchObject({ created: true, transfer: { state: 'STATE_SUBMITTED', version: 0 } });
      expect(first.transfer.progress).toEqual({ hops: [], watch: {} });
      const again = await store.track('a-1', h);
      expect(again).toMatchObject({ created: false, transfer: { id: first.transfer.id } });
      expect(await store.find('a-1', h)).toEqual({ id: first.transfer.id, state: 'STATE_SUBMITTED' });
      expect(await store.find('b-1', h)).toBeUndefined();
      expect((await row(db, first.transfer.id)).progress).toEqual({ version: 1, hops: [], watch: {} });
    });

    it('advances only under a valid lease; the audit keeps advances, not notes; an end gives the lease up', async () => {
      const db = await testDb.fresh({ migrate: false });
      await migrateTracking(db);
      const store = createTransferStore(db);
      const { transfer } = await store.track('a-1', hash());
      const progress = started('a-1', [
        ev('send_packet', packet('channel-0', 'channel-5', '1', { packet_data: data('u') })),
      ]);
      const pending = { id: transfer.id, state: 'STATE_PENDING' as const, progress };
      expect(await store.advance('router-a', pending, 'STATE_PENDING', true)).toBe(false);

      const claimed = await store.claim('router-a', 60_000, 10);
      expect(claimed.transfers.map((t) => t.id)).toEqual([transfer.id]);
      const before = (await row(db, transfer.id)).progressed;
      expect(await store.advance('router-b', pending, 'STATE_PENDING', true)).toBe(false);
      expect(await store.advance('router-a', pending, 'STATE_PENDING TRANSFER_PENDING', true)).toBe(true);
      const noted = { ...pending, progress: { ...progress, searched: ['x@b-1'] } };
      expect(await store.advance('router-a', noted, undefined, false)).toBe(true);
      const after = await row(db, transfer.id);
      expect(after).toMatchObject({ state: 'STATE_PENDING', owner: 'router-a', version: 2, terminal: false });
      expect(after.progressed).not.toBe(before);
      expect((await store.get('a-1', transfer.txHash))?.progress).toEqual(noted.progress);
      expect(await steps(db, transfer.id)).toEqual([[1, 'STATE_PENDING TRANSFER_PENDING', 'router-a']]);

      const done = { ...pending, state: 'STATE_COMPLETED_SUCCESS' as const };
      expect(await store.advance('router-a', done, 'STATE_COMPLETED_SUCCESS', true)).toBe(true);
      expect(await row(db, transfer.id)).toMatchObject({ terminal: true, owner: null, version: 3 });
      expect(await store.renew('router-a', 60_000)).toEqual(new Set());
      expect((await store.claim('router-b', 60_000, 10)).transfers).toEqual([]);
    });

    it('revives an abandoned transfer in the state its evidence gives, and nothing else', async () => {
      const db = await testDb.fresh({ migrate: false });
      await migrateTracking(db);
      const store = createTransferStore(db);
      const unseen = (await store.track('a-1', hash())).transfer;
      const seen = (await store.track('a-1', hash())).transfer;
      await store.claim('router-a', 60_000, 10);
      const progress = started('a-1', [ev('send_packet', packet('channel-0', 'channel-5', '2'))]);
      const abandoned: Array<[typeof seen, TransferProgress]> = [
        [unseen, { hops: [], watch: {} }],
        [seen, progress],
      ];
      for (const [t, p] of abandoned)
        await store.advance(
          'router-a',
          { id: t.id, state: 'STATE_ABANDONED', progress: { ...p, abandoned: { reason: 'no progress' } } },
          'STATE_ABANDONED',
          false,
        );
      expect(await store.revive(unseen.id)).toBe(true);
      expect(await store.revive(seen.id)).toBe(true);
      expect(await store.revive(seen.id)).toBe(false);
      expect(await store.find('a-1', unseen.txHash)).toMatchObject({ state: 'STATE_SUBMITTED' });
      expect(await store.find('a-1', seen.txHash)).toMatchObject({ state: 'STATE_PENDING' });
      const revived = await store.get('a-1', seen.txHash);
      expect(revived?.progress).toEqual(progress);
      expect((await row(db, seen.id)).progress).toMatchObject({ version: 1 });
      // Back in flight: claimable again.
      expect((await store.claim('router-b', 60_000, 10)).transfers).toHaveLength(2);
    });
  });
}
