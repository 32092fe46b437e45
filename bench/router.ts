import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from 'weft/cli/node-flags.js';
import { loadSettings, parse } from 'weft/common/config.js';
import { silentLogger } from 'weft/common/logger.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { createRouterServer } from 'weft/router/api/server.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import {
  migrateTracking,
  ROUTER_SCHEMA,
  startTracker,
  trackedChain,
  trackingRoutes,
} from 'weft/router/tracking/index.js';
import { openDb } from 'weft/store/db.js';
import type { Manifest } from 'weft-devnet/manifest.js';
import { until } from 'weft-devnet/test-support/until.js';
import { type LoadRequest, type LoadResult, runLoad, startLoadWorker } from './load.js';

/**
 * `npm run bench -- router`: the router on the full devnet's registry, the devnet producing blocks in a
 * `weft devnet` process of its own (as a deployment's nodes are elsewhere), loaded by autocannon in a
 * child process: `/v2/fungible/route` (an OPinit deposit and an OFT transfer) and `/v2/fungible/msgs`,
 * each as req/s at `--connections` and as a ratio to a trivial JSON route of the same server in the same
 * run, then as latency p50/p99 with one request at a time (the time a request takes, without the queue
 * that saturating connections build); and `GET /v2/tx/status` over many distinct hashes with 10,000
 * transfers tracked in the embedded store (the tracking lag is `npm run bench -- tracking`).
 */

const TRACKED = 10_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `weft devnet --network full` in a child process; resolves with its manifest once written. */
async function devnetProcess(dir: string): Promise<{ child: ChildProcess; manifest: Manifest }> {
  const path = join(dir, 'manifest.json');
  const args = ['devnet', '--network', 'full', '--seed', 'bench-router', '--accounts', '2'];
  args.push('--txs-per-block', '0', '--block-time', '1s', '--port-base', '0', '--manifest', path);
  const child = spawn(process.execPath, [...NODE_FLAGS, 'packages/weft/bin/weft.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const errors: string[] = [];
  child.stderr!.on('data', (d: Buffer) => errors.push(d.toString()));
  const manifest = await until(
    'the devnet manifest',
    async () => {
      if (child.exitCode !== null) throw new Error(`weft devnet exited: ${errors.join('')}`);
      return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Manifest) : undefined;
    },
    120_000,
  );
  return { child, manifest };
}

const stopChild = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
};

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
  const devnet = await devnetProcess(dir);
  try {
    return await loadRouter(devnet.manifest, settings);
  } finally {
    await stopChild(devnet.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function loadRouter(manifest: Manifest, settings: { seconds: number; connections: number }) {
  const registry = await loadRegistry(manifest.registry!);
  const role = (r: string) =>
    manifest.chains.find((c) => c.role === r && (r !== 'rollup' || c.vm === 'evm'))!;
  const l1 = role('l1');
  const rollup = role('rollup');
  const externalEvm = role('external-evm');
  // The tracking routes as `weft router` mounts them, on the embedded store in memory.
  const db = await openDb({ dataDir: 'memory://', schema: ROUTER_SCHEMA });
  await migrateTracking(db);
  const statusChain = l1.chain_id;
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
    const oft = registry.chain(rollup.chain_id)!.omnichain!.denom;
    const deposit = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: l1.chain_id,
      dest_asset_denom: l2Denom(registry.chain(rollup.chain_id)!.opBridgeId!, 'uinit'),
      dest_asset_chain_id: rollup.chain_id,
      amount_in: '1000000',
    };
    const oftRoute = {
      source_asset_denom: oft,
      source_asset_chain_id: rollup.chain_id,
      dest_asset_denom: oft,
      dest_asset_chain_id: externalEvm.chain_id,
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
    const latency: Record<string, { p50_ms: number; p99_ms: number; requests: number }> = {};
    // One second of each first, so that the JIT and the tracker's first look-ups of the 10,000 sources
    // are behind every measured scenario; the trivial route is measured again last and the better of
    // its two runs is the ceiling.
    for (const [, requests] of scenarios)
      await runLoad(child, { base, requests, connections: settings.connections, seconds: 1 });
    for (const [name, requests] of [...scenarios, scenarios[0]!]) {
      const previous = results[name];
      results[name] = await runLoad(child, {
        base,
        requests,
        connections: settings.connections,
        seconds: settings.seconds,
      });
      if (previous) {
        if (previous.requests_per_s > results[name].requests_per_s) results[name] = previous;
        continue;
      }
      const alone = await runLoad(child, { base, requests, connections: 1, seconds: settings.seconds });
      latency[name] = {
        p50_ms: alone.p50_ms,
        p99_ms: alone.p99_ms,
        requests: Math.round(alone.requests_per_s * settings.seconds),
      };
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
      latency_one_at_a_time: latency,
    };
  } finally {
    child.kill();
    await server.close();
    await tracker.stop();
    await db.close();
  }
}
