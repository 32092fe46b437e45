import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings, parse } from '../src/common/config.js';
import { silentLogger } from '../src/common/logger.js';
import { startDevnet } from '../src/devnet/devnet.js';
import { until } from '../src/devnet/test-support/until.js';
import { createRouterServer } from '../src/router/api/server.js';
import { l2DenomOf } from '../src/router/graph/denoms.js';
import { loadRegistry } from '../src/router/registry/load.js';
import {
  migrateTracking,
  ROUTER_SCHEMA,
  startTracker,
  trackedChain,
  trackingRoutes,
} from '../src/router/tracking/index.js';
import { openDb } from '../src/store/db.js';
import { type LoadRequest, type LoadResult, runLoad, startLoadWorker } from './load.js';

/**
 * `npm run bench -- router`: the router on the full devnet's registry, loaded by autocannon in a child
 * process: `/v2/fungible/route` (an OPinit deposit and an OFT transfer) and `/v2/fungible/msgs`, each
 * as p50/p99 and req/s, and as a ratio to a trivial JSON route of the same server in the same run;
 * and `GET /v2/tx/status` over many distinct hashes with 10,000 transfers tracked in the embedded store
 * (the tracking lag is `npm run bench -- tracking`).
 */

const TRACKED = 10_000;

/** The source tx hash of the i-th synthetic transfer: the same sha256 the insert below computes in SQL. */
const syntheticHash = (i: number) => createHash('sha256').update(`weft-bench-${i}`).digest('hex');

export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      seconds: { flag: 'seconds', description: 'load per scenario', parse: parse.int(1, 600), default: 5 },
      connections: {
        flag: 'connections',
        description: 'autocannon connections',
        parse: parse.int(1, 512),
        default: 16,
      },
    },
    { argv, env: {} },
  );
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-router-'));
  const devnet = await startDevnet({
    seed: 'bench-router',
    vms: ['evm', 'move', 'wasm'],
    network: 'full',
    accounts: 2,
    txsPerBlock: 0,
    blockTimeMs: 1000,
    host: '127.0.0.1',
    portBase: 0,
    logger: silentLogger(),
    registryDir: join(dir, 'registry'),
  });
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
  const registry = await loadRegistry(join(dir, 'registry'));
  // The tracking routes as `weft router` mounts them, on the embedded store in memory.
  const db = await openDb({ dataDir: 'memory://', schema: ROUTER_SCHEMA });
  await migrateTracking(db);
  const statusChain = devnet.l1!.chain.info.chainId;
  // One statement inserts them all (tracking each through the tracker would take one round trip each);
  // they stay STATE_SUBMITTED, as transfers whose source tx is not yet seen.
  await db.query(
    `INSERT INTO tracked_transfer (chain_id, tx_hash, state, progress)
     SELECT $1, encode(sha256(convert_to('weft-bench-' || i, 'UTF8')), 'hex'), 'STATE_SUBMITTED',
            '{"hops":[],"watch":{}}'::jsonb
     FROM generate_series(0, $2::int - 1) AS i`,
    [statusChain, TRACKED],
  );
  const tracker = await startTracker({
    db,
    chains: registry.chains.map(trackedChain),
    logger: silentLogger(),
  });
  const server = await createRouterServer({
    registry,
    plugins: [
      trackingRoutes({ tracker }),
      async (app) => void app.get('/bench/ping', async () => ({ ok: true })),
    ],
  });
  const base = await server.listen('127.0.0.1', 0);
  const child = startLoadWorker();
  try {
    const l1 = devnet.l1!;
    const rollup = devnet.rollups.find((c) => c.vm === 'evm')!;
    const oft = registry.chain(rollup.chain.info.chainId)!.omnichain!.denom;
    const deposit = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: l1.chain.info.chainId,
      dest_asset_denom: l2DenomOf(registry.chain(rollup.chain.info.chainId)!.opBridgeId!, 'uinit'),
      dest_asset_chain_id: rollup.chain.info.chainId,
      amount_in: '1000000',
    };
    const oftRoute = {
      source_asset_denom: oft,
      source_asset_chain_id: rollup.chain.info.chainId,
      dest_asset_denom: oft,
      dest_asset_chain_id: devnet.external.evm!.chain.info.chainId,
      amount_in: String(10n ** 18n),
    };
    const routed = (await (
      await fetch(`${base}/v2/fungible/route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(deposit),
      })
    ).json()) as { operations: unknown[] };
    const msgs = {
      ...deposit,
      address_list: [l1.accounts[0]!.address, rollup.accounts[0]!.address],
      operations: routed.operations,
    };
    const scenarios: Array<[string, LoadRequest[]]> = [
      ['trivial JSON route', [{ method: 'GET', path: '/bench/ping' }]],
      [
        'route: OPinit deposit',
        [{ method: 'POST', path: '/v2/fungible/route', body: JSON.stringify(deposit) }],
      ],
      [
        'route: OFT transfer',
        [{ method: 'POST', path: '/v2/fungible/route', body: JSON.stringify(oftRoute) }],
      ],
      ['msgs: OPinit deposit', [{ method: 'POST', path: '/v2/fungible/msgs', body: JSON.stringify(msgs) }]],
      [
        `status: ${TRACKED} tracked transfers`,
        Array.from({ length: TRACKED }, (_, i) => ({
          method: 'GET' as const,
          path: `/v2/tx/status?tx_hash=${syntheticHash(i)}&chain_id=${statusChain}`,
        })),
      ],
    ];
    // Every status request must find its transfer (a miss is a 404, counted in non_2xx).
    const probe = await fetch(
      `${base}/v2/tx/status?tx_hash=${syntheticHash(TRACKED - 1)}&chain_id=${statusChain}`,
    );
    if (!probe.ok) throw new Error(`status of a tracked transfer answered ${probe.status}`);
    const results: Record<string, LoadResult & { ratio_to_trivial?: number }> = {};
    for (const [name, requests] of scenarios) {
      results[name] = await runLoad(child, {
        base,
        requests,
        connections: settings.connections,
        seconds: settings.seconds,
      });
    }
    const ceiling = results['trivial JSON route']!.requests_per_s;
    for (const [name, result] of Object.entries(results))
      if (name !== 'trivial JSON route')
        result.ratio_to_trivial = Number((result.requests_per_s / ceiling).toFixed(3));
    return {
      seconds: settings.seconds,
      connections: settings.connections,
      tracked_transfers: TRACKED,
      tracking_lag: 'npm run bench -- tracking',
      results,
    };
  } finally {
    child.kill();
    await server.close();
    await tracker.stop();
    await db.close();
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
