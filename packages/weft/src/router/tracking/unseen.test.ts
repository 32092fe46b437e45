import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { installHttpErrors } from '../../common/http-errors.js';
import { silentLogger } from '../../common/logger.js';
import { type Db, openDb } from '../../store/db.js';
import { useTestDb } from '../../store/test-support/backends.js';
import { trackingRoutes } from './routes.js';
import { startTracker, type Tracker, type TrackerOptions } from './tracker.js';
import { createTransferStore, migrateTracking, ROUTER_SCHEMA, type TransferStore } from './transfer-store.js';
import type { TrackedChain } from './types.js';

/**
 * Hashes that never land cannot grow the tracking table without end: `track` refuses new ones beyond the
 * cap of transfers awaiting their source tx (429, code 8, Retry-After) while an existing row stays
 * trackable, and the tracker deletes abandoned never-seen transfers after the retention, in batches.
 * On a one-chain devnet and the embedded store.
 */

let devnet: Devnet;
let chain: TrackedChain;
let db: Db;
let tracker: Tracker | undefined;
let app: FastifyInstance | undefined;

beforeAll(async () => {
  devnet = await testDevnet({ seed: 'tracking-unseen', vms: ['move'], accounts: 1, txsPerBlock: 0 });
  const { urls } = devnet.chains[0]!;
  chain = { chainId: devnet.chains[0]!.chain.info.chainId, kind: 'cosmos', rpc: urls.rpc, rest: urls.rest };
}, 60_000);

afterEach(async () => {
  await app?.close();
  await tracker?.stop();
  await db?.close();
  app = undefined;
  tracker = undefined;
});

afterAll(() => devnet?.close());

async function store() {
  db = await (await openDb({ dataDir: 'memory://' })).withSchema(ROUTER_SCHEMA);
  await migrateTracking(db);
  return createTransferStore(db);
}

async function serve(options: Partial<TrackerOptions>) {
  await store();
  tracker = await startTracker({ db, chains: [chain], logger: silentLogger(), pollMs: 200, ...options });
  app = Fastify();
  installHttpErrors(app);
  await app.register(trackingRoutes({ tracker }));
  await app.ready();
}

/** Five never-seen transfers, 1 … 5 h old once abandoned: deleted two at a time beyond 2.5 h. */
async function batches(rows: TransferStore) {
  for (let i = 0; i < 5; i++) await rows.track(chain.chainId, hash().toLowerCase());
  expect(await rows.countUnseen(3)).toBe(3);
  expect(await rows.countUnseen(100)).toBe(5);
  await db.query(
    `UPDATE tracked_transfer SET state = 'STATE_ABANDONED', terminal = true, owner = NULL, lease_until = NULL,
       updated_at = now() - (id * interval '1 hour')`,
  );
  expect(await rows.countUnseen(100)).toBe(0);
  const ids = async () =>
    (await db.query<{ id: string }>(`SELECT id FROM tracked_transfer ORDER BY id`)).map((r) => String(r.id));
  const all = await ids();
  expect(await rows.deleteUnseenAbandoned(3_600_000 * 2.5, 2)).toBe(2);
  expect(await ids()).toEqual(all.slice(0, 3));
  expect(await rows.deleteUnseenAbandoned(3_600_000 * 2.5, 2)).toBe(1);
  expect(await rows.deleteUnseenAbandoned(3_600_000 * 2.5, 2)).toBe(0);
  expect(await ids()).toEqual(all.slice(0, 2));
}

const hash = () => randomBytes(32).toString('hex').toUpperCase();
const track = (txHash: string) =>
  app!.inject({ method: 'POST', url: '/v2/tx/track', payload: { chain_id: chain.chainId, tx_hash: txHash } });
const count = async (where = 'true') =>
  Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM tracked_transfer WHERE ${where}`))[0]!.n);

describe('transfers whose source tx is never seen', () => {
  it('refuses new ones beyond the cap with a 429 and Retry-After; tracking a tracked one still answers', async () => {
    await serve({ maxUnseen: 3, unseenAfterMs: 30_000 });
    const hashes = [hash(), hash(), hash()];
    for (const h of hashes) expect((await track(h)).statusCode).toBe(200);

    const refused = await track(hash());
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json()).toEqual({
      code: 8,
      message: expect.stringMatching(/^too many tracked txs not yet seen on chain \(at most 3\)/),
      details: [],
    });
    expect(await count()).toBe(3);

    const again = await track(hashes[1]!);
    expect(again.statusCode).toBe(200);
    expect(again.json().tx_hash).toBe(hashes[1]);

    // An abandoned one is tracked again whatever the cap; a seen one no longer counts against it.
    await db.query(
      `UPDATE tracked_transfer SET state = 'STATE_ABANDONED', terminal = true, owner = NULL, lease_until = NULL
       WHERE tx_hash = $1`,
      [hashes[0]!.toLowerCase()],
    );
    expect((await track(hashes[0]!)).statusCode).toBe(200);
    expect((await tracker!.status(chain.chainId, hashes[0]!)).state).toBe('STATE_SUBMITTED');
    await db.query(`UPDATE tracked_transfer SET state = 'STATE_PENDING' WHERE tx_hash = $1`, [
      hashes[2]!.toLowerCase(),
    ]);
    expect((await track(hash())).statusCode).toBe(200);
    expect((await track(hash())).statusCode).toBe(429);
  }, 30_000);

  it('deletes abandoned never-seen transfers after the retention, and nothing else', async () => {
    await serve({ unseenAfterMs: 300, unseenRetentionMs: 1_500, leaseMs: 1_000 });
    const unseen = hash();
    expect((await track(unseen)).statusCode).toBe(200);
    await until(
      'abandoned',
      async () => (await tracker!.status(chain.chainId, unseen)).state === 'STATE_ABANDONED',
    );
    expect(await count()).toBe(1);

    // Beside it, a day old: an abandoned transfer whose source tx was seen, and a completed one.
    const rows = createTransferStore(db);
    for (const state of ['STATE_ABANDONED', 'STATE_COMPLETED_SUCCESS']) {
      const { transfer } = await rows.track(chain.chainId, hash().toLowerCase());
      await db.query(
        `UPDATE tracked_transfer
         SET state = $2, terminal = true, owner = NULL, lease_until = NULL, updated_at = now() - interval '1 day',
             progress = jsonb_set(progress, '{source}', '{"chainId":"x","txHash":"y","height":1,"time":"t","code":0}')
         WHERE id = $1`,
        [transfer.id, state],
      );
    }

    // Kept for the retention, then deleted with its steps.
    const abandonedAt = Date.now();
    await until('deleted', async () => (await count(`tx_hash = '${unseen.toLowerCase()}'`)) === 0, 10_000);
    expect(Date.now() - abandonedAt).toBeGreaterThan(800);
    const status = await app!.inject({
      method: 'GET',
      url: `/v2/tx/status?chain_id=${chain.chainId}&tx_hash=${unseen}`,
    });
    expect(status.statusCode).toBe(404);
    expect(await count()).toBe(2);
    expect(
      Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM tracked_transfer_step`))[0]!.n),
    ).toBe(0);
  }, 30_000);

  it('deletes in bounded batches, oldest first, and counts the unseen ones up to a limit', async () => {
    await batches(await store());
  });
});

describe('the same store queries on PostgreSQL', () => {
  const pg = useTestDb('postgres');
  it('deletes in bounded batches, oldest first, and counts the unseen ones up to a limit', async () => {
    db = await openDb({ dsn: pg.dsn()!, schema: ROUTER_SCHEMA, poolSize: 2 });
    await migrateTracking(db);
    await batches(createTransferStore(db));
  });
});
