import { randomBytes } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { silentLogger } from '../../common/logger.js';
import { loadMigrations, migrate } from '../../store/migrate.js';
import { useTestDb } from '../../store/test-support/backends.js';
import { TrackedProgressInvalidError } from './errors.js';
import { decodeProgress, encodeProgress, PROGRESS_VERSION, type StoredProgress } from './progress-codec.js';
import { apply, data, ev, packet, started } from './test-support/evidence.js';
import { startTracker } from './tracker.js';
import { createTransferStore, migrateTracking } from './transfer-store.js';
import type { TransferProgress } from './types.js';

/**
 * `tracked_transfer.progress` names its version and is validated as it is read. A store written in the
 * earlier format (migrations 0001 … 0003, progress as `JSON.stringify` of the progress, as the store wrote
 * it before 0004) reads after migrating; a row that does not validate is an error naming it and the field
 * at fault, and stays in the table as it was.
 */

const row = { id: '7', chainId: 'a-1', txHash: 'ab'.repeat(32) };

/** A transfer half-way: sent, received, not yet acknowledged. */
function received(): TransferProgress {
  const p = started('a-1', [
    ev('send_packet', packet('channel-0', 'channel-5', '3', { packet_data: data('u') })),
  ]);
  apply(p, 'b-1', [ev('recv_packet', packet('channel-0', 'channel-5', '3'))]);
  return p;
}

describe('the stored progress format', () => {
  it('is the progress with its version, and reads back as it was written', () => {
    expectTypeOf<StoredProgress>().toEqualTypeOf<TransferProgress>();
    const progress = received();
    const stored = JSON.parse(encodeProgress(progress));
    expect(stored.version).toBe(PROGRESS_VERSION);
    expect(decodeProgress(stored, row)).toEqual(progress);
    expect(decodeProgress(encodeProgress(progress), row)).toEqual(progress);
  });

  it('reads the format before versions; refuses a newer version and a shape that does not validate', () => {
    const progress = received();
    expect(decodeProgress(JSON.parse(JSON.stringify(progress)), row)).toEqual(progress);

    const newer = { ...progress, version: 2 };
    expect(() => decodeProgress(newer, row)).toThrow(/version 2 is not one this router reads \(0 … 1\)/);
    const wrong = structuredClone(progress) as unknown as { hops: Array<{ send: { height: unknown } }> };
    wrong.hops[0]!.send.height = 'ten';
    const err = (() => {
      try {
        decodeProgress({ ...wrong, version: 1 }, row);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TrackedProgressInvalidError);
    expect(err).toMatchObject({ code: 'WEFT_ERR_TRACKED_PROGRESS_INVALID', status: 500, row });
    expect((err as Error).message).toMatch(/^tracked transfer 7 \(tx abab.* on a-1\) cannot be read/);
    expect((err as Error).message).toMatch(/\/hops\/0\/send\/height must be number/);
    expect(() => decodeProgress('[1]', row)).toThrow(/not a JSON object/);
    expect(() => decodeProgress('{', row)).toThrow(/not JSON/);
  });
});

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`a store written in the earlier format, on ${backend}`, () => {
    const testDb = useTestDb(backend);

    it('migrates in place to the versioned format; a row that does not read stays as it is', async () => {
      const db = await testDb.fresh({ migrate: false });
      const all = await loadMigrations(new URL('./migrations/', import.meta.url));
      await migrate(
        db,
        all.filter((m) => m.version < 4),
      );
      const hashes = [0, 1, 2].map(() => randomBytes(32).toString('hex'));
      const halfWay = received();
      const earlier = [{ hops: [], watch: {} }, halfWay, halfWay].map((p) => JSON.stringify(p));
      earlier[2] = '{"hops": [{"kind": "ibc"}], "watch": {}}';
      for (const [i, progress] of earlier.entries())
        await db.query(
          `INSERT INTO tracked_transfer (chain_id, tx_hash, state, progress) VALUES ('a-1', $1, $2, $3::jsonb)`,
          [hashes[i], i === 0 ? 'STATE_SUBMITTED' : 'STATE_PENDING', progress],
        );

      await migrateTracking(db);
      const versions = await db.query<{ version: number | null }>(
        `SELECT (progress->>'version')::int AS version FROM tracked_transfer ORDER BY id`,
      );
      expect(versions.map((v) => v.version)).toEqual([1, 1, 1]);
      const store = createTransferStore(db);
      expect((await store.get('a-1', hashes[0]!))?.progress).toEqual({ hops: [], watch: {} });
      expect((await store.get('a-1', hashes[1]!))?.progress).toEqual(halfWay);
      await expect(store.get('a-1', hashes[2]!)).rejects.toThrow(TrackedProgressInvalidError);

      // The tracker answers it as an error, lists it in its stored state, and leaves it as it was.
      const before = await db.query(`SELECT * FROM tracked_transfer WHERE tx_hash = $1`, [hashes[2]]);
      const tracker = await startTracker({ db, chains: [], logger: silentLogger(), readyWaitMs: 0 });
      try {
        await expect(tracker.status('a-1', hashes[2]!)).rejects.toMatchObject({
          code: 'WEFT_ERR_TRACKED_PROGRESS_INVALID',
          message: expect.stringMatching(/version 1 does not validate: \/hops\/0 /),
        });
        expect((await tracker.recent({ limit: 10 })).transfers.map((t) => t.state)).toEqual([
          'STATE_PENDING',
          'STATE_PENDING',
          'STATE_SUBMITTED',
        ]);
        expect(tracker.held()).toBe(2);
      } finally {
        await tracker.stop();
      }
      const after = await db.query(`SELECT * FROM tracked_transfer WHERE tx_hash = $1`, [hashes[2]]);
      expect(after).toEqual(before.map((r) => ({ ...r, owner: null, lease_until: null })));
    });
  });
}
