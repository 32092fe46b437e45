import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../common/logger.js';
import { createShutdown } from '../common/shutdown.js';
import { loadRouterConfig } from '../router/config.js';
import { startRouter } from './router.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-router-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A two-chain registry folder in the initia-registry layout. */
function writeRegistry(): string {
  const root = join(dir, 'registry');
  const chain = (name: string, id: string, rest: string, extra: object) => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(
      join(root, name, 'chain.json'),
      JSON.stringify({
        chain_name: name,
        chain_id: id,
        bech32_prefix: 'init',
        network_type: 'devnet',
        fees: { fee_tokens: [{ denom: 'uinit', average_gas_price: 0.015 }] },
        apis: { rpc: [{ address: 'http://127.0.0.1:1' }], rest: [{ address: rest }] },
        ...extra,
      }),
    );
    writeFileSync(
      join(root, name, 'assetlist.json'),
      JSON.stringify({
        chain_name: name,
        assets: [
          {
            base: 'uinit',
            display: 'INIT',
            symbol: 'INIT',
            name: 'Initia',
            denom_units: [
              { denom: 'uinit', exponent: 0 },
              { denom: 'INIT', exponent: 6 },
            ],
          },
        ],
      }),
    );
  };
  chain('initia', 'l1-1', 'http://127.0.0.1:2', { metadata: { is_l1: true } });
  chain('rollup', 'rollup-1', 'http://127.0.0.1:3', {
    metadata: { op_bridge_id: '1', op_denoms: ['uinit'] },
  });
  return root;
}

describe('weft router', () => {
  it('reads REGISTRY and node overrides, and serves the registry', async () => {
    const config = loadRouterConfig({
      argv: [
        '--registry',
        writeRegistry(),
        '--port',
        '0',
        '--nodes',
        'rollup-1.rest=http://127.0.0.1:9/',
        '--data-dir',
        'memory://',
      ],
      env: {},
    });
    const shutdown = createShutdown(silentLogger());
    const { url } = await startRouter(config, { logger: silentLogger(), shutdown });
    try {
      const body = (await (await fetch(`${url}/v2/info/chains`)).json()) as {
        chains: Array<{ chain_id: string; rest: string }>;
      };
      expect(body.chains.map((c) => [c.chain_id, c.rest])).toEqual([
        ['l1-1', 'http://127.0.0.1:2'],
        ['rollup-1', 'http://127.0.0.1:9'],
      ]);
    } finally {
      await shutdown.kill();
    }
  });

  it('keeps tracked transfers in its store across a restart', async () => {
    const config = loadRouterConfig({
      argv: ['--registry', writeRegistry(), '--port', '0', '--data-dir', join(dir, 'store')],
      env: {},
    });
    const hash = 'AB'.repeat(32);
    const status = (url: string) => fetch(`${url}/v2/tx/status?tx_hash=${hash}&chain_id=l1-1`);
    const first = createShutdown(silentLogger());
    try {
      const { url } = await startRouter(config, { logger: silentLogger(), shutdown: first });
      const untracked = await status(url);
      expect(untracked.status).toBe(404);
      expect(((await untracked.json()) as { message: string }).message).toMatch(/not tracked/i);
      const tracked = await fetch(`${url}/v2/tx/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tx_hash: hash, chain_id: 'l1-1' }),
      });
      expect(tracked.status).toBe(200);
    } finally {
      await first.kill();
    }
    const second = createShutdown(silentLogger());
    try {
      const { url } = await startRouter(config, { logger: silentLogger(), shutdown: second });
      const answer = await status(url);
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { state: string }).state).toBe('STATE_SUBMITTED');
    } finally {
      await second.kill();
    }
  });

  it('caps the tracked txs not yet seen on chain (ROUTER_TRACKING_MAX_UNSEEN) and reads the retention', async () => {
    const defaults = loadRouterConfig({ argv: ['--registry', dir], env: {} });
    expect(defaults).toMatchObject({ trackingUnseenRetentionMs: 3_600_000, trackingMaxUnseen: 10_000 });
    expect(
      loadRouterConfig({ argv: ['--registry', dir, '--tracking-unseen-retention', '5000'], env: {} })
        .trackingUnseenRetentionMs,
    ).toBe(5000);
    const config = loadRouterConfig({
      argv: ['--registry', writeRegistry(), '--port', '0', '--data-dir', 'memory://'],
      env: { ROUTER_TRACKING_MAX_UNSEEN: '1' },
    });
    const shutdown = createShutdown(silentLogger());
    try {
      const { url } = await startRouter(config, { logger: silentLogger(), shutdown });
      const track = (hash: string) =>
        fetch(`${url}/v2/tx/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tx_hash: hash, chain_id: 'l1-1' }),
        });
      expect((await track('CD'.repeat(32))).status).toBe(200);
      const refused = await track('EF'.repeat(32));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(((await refused.json()) as { code: number }).code).toBe(8);
      expect((await track('CD'.repeat(32))).status).toBe(200);
    } finally {
      await shutdown.kill();
    }
  });

  it('stops at start with one line naming a bad setting', () => {
    expect(() => loadRouterConfig({ argv: [], env: {} })).toThrow(
      'invalid configuration: REGISTRY: required',
    );
    expect(() => loadRouterConfig({ argv: ['--registry', dir, '--nodes', 'x=y'], env: {} })).toThrow(
      /--nodes/,
    );
  });
});
