import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { l2Denom } from 'weft/protocol/opinit.js';
import { createRouterServer } from 'weft/router/api/server.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import { post as postTo } from './router-api-support.js';
import { nftBody, useRouterDevnet } from './router-devnet-support.js';
import { bankBalance } from './router-wallet-support.js';

/**
 * The router's HTTP surface on the full devnet, as wallets meet it: CORS, GET lists, balances read from
 * the nodes (and what a wallet gets when one node hangs or is gone), OpenAPI, the docs page and metrics;
 * `/nft`'s 404 (the devnet runs no ICS-721 channel); and a flood of malformed requests that must all get
 * JSON 4xx answers. Transfers over the same devnet are router-devnet.test.ts.
 */

const net = useRouterDevnet('router-surface');
const post = (path: string, body: unknown) => postTo(net.url, path, body);

describe("the router's HTTP surface on the full devnet", () => {
  it('serves CORS for wallets, GET lists both ways, balances from the nodes, OpenAPI, a docs page and metrics', async () => {
    const preflight = await fetch(`${net.url}/v2/fungible/route`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://wallet.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,interwovenkit-version',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'interwovenkit-version',
    );

    const ids = (q: string) =>
      fetch(`${net.url}/v2/info/chains?${q}`).then(async (r) =>
        ((await r.json()) as any).chains.map((c: any) => c.chain_id),
      );
    const two = [net.l1.chain.info.chainId, net.eth.chain.info.chainId];
    expect(await ids(`chain_ids=${two.join(',')}`)).toEqual(two);
    expect(await ids(`chain_ids=${two[0]}&chain_ids=${two[1]}`)).toEqual(two);
    const assets = (await (await fetch(`${net.url}/v2/fungible/assets?chain_ids=${two[1]}`)).json()) as any;
    expect(Object.keys(assets.chain_to_assets_map)).toEqual([two[1]]);
    for (const asset of assets.chain_to_assets_map[two[1]!].assets)
      expect(asset.decimals).toEqual(expect.any(Number));

    const holder = net.l1.accounts[0]!.address;
    const balances = await post('/v2/info/balances', {
      chains: {
        [net.l1.chain.info.chainId]: { address: holder, denoms: ['uinit', 'unheld'] },
        [net.eth.chain.info.chainId]: { address: net.eth.accounts[0]!.hexAddress, denoms: [] },
      },
    });
    expect(balances.status, JSON.stringify(balances.json)).toBe(200);
    expect(balances.json.chains[net.l1.chain.info.chainId].denoms.uinit.amount).toBe(
      String(await bankBalance(net.l1, holder, 'uinit')),
    );
    expect(balances.json.chains[net.l1.chain.info.chainId].denoms.unheld).toMatchObject({ amount: '0' });
    expect(BigInt(balances.json.chains[net.eth.chain.info.chainId].denoms.wei.amount)).toBeGreaterThan(0n);

    const doc = (await (await fetch(`${net.url}/swagger/doc.json`)).json()) as any;
    for (const path of [
      '/v2/info/chains',
      '/v2/fungible/assets',
      '/v2/fungible/route',
      '/v2/fungible/msgs',
      '/v2/fungible/msgs_direct',
      '/op-hook',
      '/v2/info/balances',
    ])
      expect(doc.paths[path], path).toBeDefined();
    expect(doc.paths['/v2/fungible/route'].post.requestBody).toBeDefined();
    const page = await fetch(`${net.url}/swagger/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    // A route of its own, so the metric below counts a request this test made.
    const routed = await post('/v2/fungible/route', {
      source_asset_denom: 'uinit',
      source_asset_chain_id: net.l1.chain.info.chainId,
      dest_asset_denom: l2Denom('1', 'uinit'),
      dest_asset_chain_id: net.evmRollup.chain.info.chainId,
      amount_in: '1000',
    });
    expect(routed.status, JSON.stringify(routed.json)).toBe(200);
    const metrics = await (await fetch(`${net.url}/metrics`)).text();
    expect(metrics).toContain('weft_http_requests_total{method="POST",handler="/v2/fungible/route"');
  });

  it('answers balances for every chain a wallet lists at once: a chain whose node hangs or is gone gets its own error entries, the others answer', async () => {
    // A node that takes the connection and never answers, and one that refuses it.
    const sockets = new Set<Socket>();
    const hanging = createServer((socket) => sockets.add(socket));
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const l1Id = net.l1.chain.info.chainId;
    const moveId = net.moveRollup.chain.info.chainId;
    const ethId = net.eth.chain.info.chainId;
    const degraded = await createRouterServer({
      registry: await loadRegistry(net.registryDir, {
        [moveId]: { rest: hangingUrl },
        [ethId]: { jsonRpc: 'http://127.0.0.1:1' },
      }),
      nodeTimeoutMs: 1_000,
    });
    const degradedUrl = await degraded.listen('127.0.0.1', 0);
    try {
      const holder = net.l1.accounts[0]!.address;
      const chains: Record<string, { address: string; denoms: string[] }> = {};
      // InterwovenKit's deposit page: every chain the router lists (here padded past the old cap of 20).
      for (let i = 0; i < 24; i++) chains[`elsewhere-${i}`] = { address: holder, denoms: ['uinit'] };
      for (const c of net.devnet.all) chains[c.chain.info.chainId] = { address: holder, denoms: [] };
      chains[ethId] = { address: net.eth.accounts[0]!.hexAddress, denoms: ['wei'] };
      const started = Date.now();
      const res = await fetch(`${degradedUrl}/v2/info/balances`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chains }),
      });
      const elapsed = Date.now() - started;
      const json = (await res.json()) as any;
      expect(res.status, JSON.stringify(json)).toBe(200);
      // Asked concurrently: one hung chain costs one node timeout, not one per chain.
      expect(elapsed).toBeLessThan(2_900);
      expect(Object.keys(json.chains).sort()).toEqual(Object.keys(chains).sort());
      expect(json.chains[l1Id].denoms.uinit.amount).toBe(String(await bankBalance(net.l1, holder, 'uinit')));
      expect(json.chains[l1Id].denoms.uinit.error).toBeUndefined();
      const moveEntries = Object.values(json.chains[moveId].denoms) as any[];
      expect(moveEntries.length).toBeGreaterThan(0);
      for (const entry of moveEntries)
        expect(entry).toEqual({
          amount: '0',
          formatted_amount: '0',
          error: {
            code: 14,
            message: `${moveId}: ${moveId}'s node did not answer within 1000 ms`,
            details: [],
          },
        });
      expect(json.chains[ethId].denoms.wei).toMatchObject({ amount: '0', error: { code: 14 } });
      expect(json.chains[ethId].denoms.wei.error.message).toContain(ethId);
      expect(json.chains['elsewhere-3'].denoms.uinit).toEqual({
        amount: '0',
        formatted_amount: '0',
        error: { code: 5, message: 'chain elsewhere-3 is not supported', details: [] },
      });
    } finally {
      await degraded.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => hanging.close(r));
    }
  });

  it('answers /nft with a 404 naming the missing ICS-721 channel: the net.devnet runs no nft-transfer module', async () => {
    const { status, json } = await post('/nft', nftBody(net));
    expect(status).toBe(404);
    expect(json).toEqual({
      code: 5,
      message: `no ICS-721 (nft-transfer) channel from ${net.l1.chain.info.chainId} to ${net.evmRollup.chain.info.chainId}`,
      details: [],
    });
    expect((await post('/nft', { ...nftBody(net), to_chain_id: 'nope-1' })).status).toBe(404);
  });

  it('answers more than 500 malformed requests with JSON and never a 5xx', async () => {
    const l1Id = net.l1.chain.info.chainId;
    const rollupId = net.evmRollup.chain.info.chainId;
    const l2 = l2Denom('1', 'uinit');
    const routeBody = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: l1Id,
      dest_asset_denom: l2,
      dest_asset_chain_id: rollupId,
      amount_in: '1000',
    };
    const operations = (await post('/v2/fungible/route', routeBody)).json.operations;
    const address = net.l1.accounts[0]!.address;
    const valid: Array<[string, Record<string, unknown>]> = [
      ['/v2/fungible/route', { ...routeBody, is_op_withdraw: false }],
      [
        '/v2/fungible/msgs',
        {
          ...routeBody,
          address_list: [address, address],
          operations,
          slippage_tolerance_percent: '1',
          timeout_seconds: '60',
        },
      ],
      [
        '/v2/fungible/msgs_direct',
        { ...routeBody, chain_ids_to_addresses: { [l1Id]: address, [rollupId]: address } },
      ],
      [
        '/op-hook',
        {
          source_address: address,
          source_asset_chain_id: l1Id,
          source_asset_denom: 'uinit',
          dest_address: address,
          dest_asset_chain_id: rollupId,
          dest_asset_denom: l2,
        },
      ],
      ['/v2/info/balances', { chains: { [l1Id]: { address, denoms: ['uinit'] } } }],
      ['/nft', nftBody(net)],
    ];
    const bad: unknown[] = [
      null,
      0,
      -1,
      1.5,
      true,
      [],
      {},
      '',
      ' ',
      'x'.repeat(5000),
      '1e5',
      '-5',
      '0x10',
      'ünï',
      '../..',
      'init1qqqq',
      [[]],
      { a: { b: {} } },
    ];
    const requests: Array<{ method: string; path: string; body?: string; type?: string }> = [];
    for (const [path, body] of valid) {
      for (const field of Object.keys(body)) {
        const { [field]: _, ...without } = body;
        requests.push({ method: 'POST', path, body: JSON.stringify(without) });
        for (const value of bad)
          requests.push({ method: 'POST', path, body: JSON.stringify({ ...body, [field]: value }) });
      }
      for (const raw of ['', '{', 'null', '[]', '"x"', '1', '{"a":', '\u0000', '{}'.repeat(100)])
        requests.push({ method: 'POST', path, body: raw });
      requests.push({ method: 'POST', path, body: JSON.stringify(body), type: 'text/plain' });
      requests.push({ method: 'GET', path });
    }
    const tampered = [
      [{ transfer: { channel: 'channel-9' } }],
      [
        {
          op_init_transfer: {
            ...operations[0].op_init_transfer,
            op_init_bridge_id: '2',
            to_chain_id: 'weft-move-1',
          },
        },
      ],
      [{ swap: {} }],
      [operations[0], operations[0]],
    ];
    for (const ops of tampered)
      requests.push({
        method: 'POST',
        path: '/v2/fungible/msgs',
        body: JSON.stringify({ ...valid[1]![1], operations: ops }),
      });
    for (const query of [
      'chain_ids=',
      'chain_ids=%ZZ',
      'chain_ids=a&chain_ids=b',
      'include_evm=maybe',
      `chain_ids=${'x,'.repeat(2000)}`,
    ])
      for (const path of ['/v2/info/chains', '/v2/fungible/assets'])
        requests.push({ method: 'GET', path: `${path}?${query}` });
    for (const path of ['/v2/fungible/nope', '/v2', '/%', '/op-hook/../x'])
      requests.push({ method: 'GET', path });
    expect(requests.length).toBeGreaterThan(500);

    const statuses = new Map<number, number>();
    for (let i = 0; i < requests.length; i += 25) {
      await Promise.all(
        requests.slice(i, i + 25).map(async (r) => {
          const response = await fetch(`${net.url}${r.path}`, {
            method: r.method,
            ...(r.body === undefined
              ? {}
              : { body: r.body, headers: { 'content-type': r.type ?? 'application/json' } }),
          });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          expect(response.status, `${r.method} ${r.path} ${r.body?.slice(0, 200)} → ${text}`).toBeLessThan(
            500,
          );
          expect(response.headers.get('content-type')).toMatch(/application\/json/);
          const json = JSON.parse(text);
          if (response.status >= 400) {
            expect(json).toMatchObject({
              code: expect.any(Number),
              message: expect.any(String),
              details: [],
            });
          }
        }),
      );
    }
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
  }, 120_000);
});
