import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { parseFlags } from 'weft/common/config.js';
import { silentLogger } from 'weft/common/logger.js';
import { startTracker, type Tracker } from 'weft/router/tracking/tracker.js';
import { migrateTracking, ROUTER_SCHEMA } from 'weft/router/tracking/transfer-store.js';
import { type Db, openDb } from 'weft/store/db.js';
import { depositMany, trackedChains, trackingDevnet, until } from '../test/router-tracking-support.js';

/**
 * `npm run bench -- tracking [--transfers 1000] [--pg postgres://…]`: two trackers on one PostgreSQL
 * database (a throw-away one) track that many cosmjs-signed L1 deposits into the full network's three
 * bridges. Prints the time until all completed, the tracking lag (from the moment the block with the
 * finalize was produced, sampled every 10 ms, to the completed status row) p50/p99, each tracker's share of the advances, and how many transfers were
 * advanced twice to the same step (must be 0).
 */

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function admin(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function run(argv: string[]) {
  const flags = parseFlags(argv, new Set());
  const count = Number(flags.get('transfers') ?? 1000);
  const adminUrl = flags.get('pg') ?? process.env.WEFT_BENCH_PG_URL ?? DEFAULT_PG;
  const database = `weft_bench_tracking_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, `CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const network = await trackingDevnet('bench-tracking');
  const { devnet } = network;
  const chains = trackedChains(devnet);
  const dbs: Db[] = [];
  const trackers: Tracker[] = [];
  try {
    for (const owner of ['router-1', 'router-2']) {
      const db = await openDb({ dsn: url.toString(), schema: ROUTER_SCHEMA, poolSize: 4 });
      dbs.push(db);
      await migrateTracking(db);
      trackers.push(
        await startTracker({
          db,
          chains,
          owner,
          logger: silentLogger(),
          pollMs: 100,
          maxHeld: Math.ceil(count * 0.6),
        }),
      );
    }
    // When each rollup block appeared (devnet block times are seeded, not wall-clock).
    const producedAt = new Map<string, number>();
    const sampler = setInterval(() => {
      for (const rollup of devnet.rollups) {
        const key = `${rollup.chain.info.chainId}@${rollup.chain.latestHeight()}`;
        if (!producedAt.has(key)) producedAt.set(key, Date.now());
      }
    }, 10);
    const started = Date.now();
    await depositMany(devnet, count, (hash, i) => trackers[i % 2]!.track('weft-l1-1', hash));
    const broadcastSeconds = (Date.now() - started) / 1000;
    const db = dbs[0]!;
    const open = async () =>
      Number(
        (await db.query<{ n: string }>(`SELECT count(*) AS n FROM tracked_transfer WHERE NOT terminal`))[0]!
          .n,
      );
    await until('every transfer completed', async () => (await open()) === 0, 600_000);
    const totalSeconds = (Date.now() - started) / 1000;
    clearInterval(sampler);

    const rows = await db.query<{ chain: string; height: string; at: string }>(
      `SELECT t.progress->'hops'->0->'receive'->>'chainId' AS chain,
              t.progress->'hops'->0->'receive'->>'height' AS height, s.at
       FROM tracked_transfer t JOIN tracked_transfer_step s ON s.transfer_id = t.id AND s.state = t.state
       WHERE t.state = 'STATE_COMPLETED_SUCCESS'`,
    );
    const lags = rows
      .map((r) => Date.parse(r.at) - (producedAt.get(`${r.chain}@${r.height}`) ?? Number.NaN))
      .filter((lag) => Number.isFinite(lag))
      .sort((a, b) => a - b);
    const states = await db.query<{ state: string; n: string }>(
      `SELECT state, count(*) AS n FROM tracked_transfer GROUP BY state ORDER BY state`,
    );
    const shares = await db.query<{ owner: string; n: string }>(
      `SELECT owner, count(*) AS n FROM tracked_transfer_step GROUP BY owner ORDER BY owner`,
    );
    const twice = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT transfer_id, step FROM tracked_transfer_step
       GROUP BY transfer_id, step HAVING count(*) > 1) d`,
    );
    return {
      transfers: count,
      trackers: 2,
      broadcast_seconds: broadcastSeconds,
      all_completed_seconds: totalSeconds,
      states: Object.fromEntries(states.map((s) => [s.state, Number(s.n)])),
      lag_ms: {
        p50: quantile(lags, 0.5),
        p99: quantile(lags, 0.99),
        max: lags.at(-1) ?? 0,
        measured: lags.length,
      },
      block_time_ms: 200,
      advances_by_tracker: Object.fromEntries(shares.map((s) => [s.owner, Number(s.n)])),
      advanced_twice: Number(twice[0]!.n),
    };
  } finally {
    for (const t of trackers) await t.stop();
    for (const db of dbs) await db.close();
    await network.close();
    await admin(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}
