import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { startTracker, type Tracker, type TrackerOptions } from 'weft/router/tracking/tracker.js';
import { migrateTracking, ROUTER_SCHEMA } from 'weft/router/tracking/transfer-store.js';
import type { TrackedChain } from 'weft/router/tracking/types.js';
import { type Db, openDb } from 'weft/store/db.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import {
  control,
  depositMany,
  depositor,
  trackedChains,
  trackingDevnet,
  until,
} from './router-tracking-support.js';

/**
 * Several router processes on one PostgreSQL database: a tracker that dies mid-transfer leaves its
 * transfers to the next one, which resumes them from the heights they wait on; two trackers share
 * 400 transfers (`TRACKING_SHARED_TRANSFERS=1000` for the long run), and no transfer is advanced twice.
 */

const SHARED = Number(process.env.TRACKING_SHARED_TRANSFERS ?? 400);

const pg = useTestDb('postgres');
let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let chains: TrackedChain[];
const opened: Db[] = [];
const running: Tracker[] = [];

beforeAll(async () => {
  network = await trackingDevnet('tracking-shared');
  devnet = network.devnet;
  l1 = devnet.l1!;
  chains = trackedChains(devnet);
}, 180_000);

afterAll(async () => {
  for (const t of running) await t.stop().catch(() => undefined);
  for (const db of opened) await db.close();
  await network?.close();
}, 60_000);

/** A router process: its own connection pool on the shared database. */
async function routerProcess(owner: string, options: Partial<TrackerOptions> = {}): Promise<Tracker> {
  const db = await openDb({ dsn: pg.dsn()!, schema: ROUTER_SCHEMA, poolSize: 4 });
  opened.push(db);
  await migrateTracking(db);
  const tracker = await startTracker({
    db,
    chains,
    owner,
    logger: silentLogger(),
    pollMs: 100,
    leaseMs: 2_000,
    ...options,
  });
  running.push(tracker);
  return tracker;
}

const admin = async () => {
  const db = await openDb({ dsn: pg.dsn()!, schema: ROUTER_SCHEMA, poolSize: 1 });
  opened.push(db);
  return db;
};

describe('tracking shared by router processes on one PostgreSQL database', () => {
  it('resumes a transfer after its tracker died, from the heights it waits on', async () => {
    const first = await routerProcess('router-a');
    expect(await control(devnet, 'weft_pauseRelayer', ['opinit-executor-weft-move-1'])).toMatchObject({
      paused: true,
    });
    const rollup = devnet.rollups.find((r) => r.vm === 'move')!;
    const wallet = await depositor(l1, l1.accounts[0]!);
    const hash = await wallet.deposit({ bridgeId: 2n, to: rollup.accounts[2]!.address, amount: '31' });
    wallet.close();
    await first.track('weft-l1-1', hash);
    await until('pending', async () => (await first.status('weft-l1-1', hash)).state === 'STATE_PENDING');

    // Killed: its lease stays until it lapses, and nobody follows the chains meanwhile.
    await first.stop({ keepLeases: true });
    const before = rollup.chain.latestHeight();
    expect(await control(devnet, 'weft_resumeRelayer', ['opinit-executor-weft-move-1'])).toMatchObject({
      paused: false,
    });
    await until('blocks without a tracker', async () => rollup.chain.latestHeight() >= before + 20);

    // The next process keeps only 5 blocks in memory: the finalize lies before them, read again on takeover.
    const second = await routerProcess('router-b', { retainBlocks: 5 });
    const done = await until(
      'completed by the second router',
      async () => {
        const s = await second.status('weft-l1-1', hash);
        return s.status === 'STATE_COMPLETED' ? s : undefined;
      },
      30_000,
    );
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfer_sequence[0]!.op_init_transfer).toMatchObject({
      to_chain_id: 'weft-move-1',
      success: true,
    });
    const db = await admin();
    const steps = await db.query<{ state: string; owner: string }>(
      `SELECT s.state, s.owner FROM tracked_transfer_step s JOIN tracked_transfer t ON t.id = s.transfer_id
       WHERE t.tx_hash = $1 ORDER BY s.version`,
      [hash.toLowerCase()],
    );
    expect(steps).toEqual([
      { state: 'STATE_PENDING', owner: 'router-a' },
      { state: 'STATE_COMPLETED_SUCCESS', owner: 'router-b' },
    ]);
    await second.stop();
  }, 90_000);

  it(
    `shares ${SHARED} transfers between two trackers, one dying midway, none advanced twice`,
    async () => {
      const count = SHARED;
      const a = await routerProcess('router-c', { maxHeld: Math.ceil(count / 2) });
      const b = await routerProcess('router-d', { maxHeld: Math.ceil(count / 2) });
      const hashes = await depositMany(devnet, count, (hash, i) =>
        (i % 2 === 0 ? a : b).track('weft-l1-1', hash),
      );
      const db = await admin();
      const completed = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM tracked_transfer WHERE state = 'STATE_COMPLETED_SUCCESS' AND tx_hash = ANY($1)`,
              [hashes.map((h) => h.toLowerCase())],
            )
          )[0]!.n,
        );
      await until('some transfers completed', async () => (await completed()) >= count / 10, 60_000);
      expect(a.held() + b.held()).toBeGreaterThan(0);

      // One dies; the other takes its transfers over once their leases lapse (it may hold all now).
      await a.stop({ keepLeases: true });
      const c = await routerProcess('router-e', { maxHeld: count });
      await until(
        'every transfer completed',
        async () => (await completed()) === count,
        90_000 + count * 100,
      );

      const steps = await db.query<{ transfer_id: string; step: string; owner: string }>(
        `SELECT s.transfer_id, s.step, s.owner FROM tracked_transfer_step s
       JOIN tracked_transfer t ON t.id = s.transfer_id WHERE t.tx_hash = ANY($1)`,
        [hashes.map((h) => h.toLowerCase())],
      );
      const seen = new Set<string>();
      const twice = steps.filter((s) => {
        const key = `${s.transfer_id} ${s.step}`;
        if (seen.has(key)) return true;
        seen.add(key);
        return false;
      });
      expect(twice).toEqual([]);
      const owners = new Set(steps.map((s) => s.owner));
      expect(owners.has('router-c')).toBe(true);
      expect(owners.has('router-d') || owners.has('router-e')).toBe(true);
      // Every transfer: found (PENDING) once and completed once, whoever did each.
      const perTransfer = new Map<string, number>();
      for (const s of steps) perTransfer.set(s.transfer_id, (perTransfer.get(s.transfer_id) ?? 0) + 1);
      expect([...perTransfer.values()].every((n) => n >= 1 && n <= 2)).toBe(true);
      expect(perTransfer.size).toBe(count);
      await b.stop();
      await c.stop();
    },
    240_000 + SHARED * 500,
  );
});
