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
import { type LoadRequest, type LoadResult, runLoad, startLoadWorker } from './load.js';

/**
 * `npm run bench -- router`: the router on the full devnet's registry, loaded by autocannon in a child
 * process: `/v2/fungible/route` (an OPinit deposit and an OFT transfer) and `/v2/fungible/msgs`, each
 * as p50/p99 and req/s, and as a ratio to a trivial JSON route of the same server in the same run.
 */

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
  const server = await createRouterServer({
    registry,
    plugins: [async (app) => void app.get('/bench/ping', async () => ({ ok: true }))],
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
    ];
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
    return { seconds: settings.seconds, connections: settings.connections, results };
  } finally {
    child.kill();
    await server.close();
    await devnet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
