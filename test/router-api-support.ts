import { expect } from 'vitest';
import { startRouter } from 'weft/cli/router.js';
import { silentLogger } from 'weft/common/logger.js';
import { createShutdown, type Shutdown } from 'weft/common/shutdown.js';
import { loadRouterConfig } from 'weft/router/config.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';

/** The router's HTTP API as a wallet calls it: JSON in, status and JSON out. */

export async function post(base: string, path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

/** `/route` then `/msgs` for the addresses of every chain on the way: the route and its one tx. */
export async function routeAndBuild(
  base: string,
  request: Record<string, string>,
  addresses: string[],
  extra: Record<string, unknown> = {},
) {
  const routed = await post(base, '/v2/fungible/route', request);
  expect(routed.status, JSON.stringify(routed.json)).toBe(200);
  expect(routed.json.txs_required).toBe(1);
  const built = await post(base, '/v2/fungible/msgs', {
    ...request,
    amount_out: routed.json.amount_out,
    address_list: addresses,
    operations: routed.json.operations,
    slippage_tolerance_percent: '1',
    ...extra,
  });
  expect(built.status, JSON.stringify(built.json)).toBe(200);
  expect(built.json.txs).toHaveLength(1);
  return { routed: routed.json, tx: built.json.txs[0] };
}

export const status = async (base: string, chainId: string, hash: string) =>
  (await fetch(`${base}/v2/tx/status?tx_hash=${hash}&chain_id=${chainId}`)).json() as Promise<any>;

/** `POST /v2/tx/track`, then `GET /v2/tx/status` until the state is terminal; answers the last status. */
export async function trackToEnd(base: string, chainId: string, hash: string, ms = 60_000) {
  const tracked = await post(base, '/v2/tx/track', { tx_hash: hash, chain_id: chainId });
  expect(tracked.status, JSON.stringify(tracked.json)).toBe(200);
  const done = await until(
    `${hash} on ${chainId} to end`,
    async () => {
      const answer = await status(base, chainId, hash);
      return /^STATE_(COMPLETED_|ABANDONED)/.test(answer.state) && answer;
    },
    ms,
  );
  expect(done.status).toBe('STATE_COMPLETED');
  return done;
}

/**
 * `weft router` as its command starts it, in this process, over a devnet's registry on an embedded store
 * in memory, with `env` as further settings; answers its URL and the shutdown that stops it.
 */
export async function routerOnDevnet(
  devnet: Devnet,
  env: Record<string, string> = {},
): Promise<{ url: string; shutdown: Shutdown }> {
  const config = loadRouterConfig({
    argv: ['--registry', devnet.manifest().registry!, '--host', '127.0.0.1', '--port', '0'],
    env: { DATA_DIR: 'memory://', ...env },
  });
  const shutdown = createShutdown(silentLogger());
  const { url } = await startRouter(config, { logger: silentLogger(), shutdown });
  return { url, shutdown };
}
