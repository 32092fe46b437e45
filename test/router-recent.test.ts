import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shutdown } from 'weft/common/shutdown.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { post, routerOnDevnet, status } from './router-api-support.js';

/**
 * `GET /v2/tx/recent` of `weft router` over a one-chain devnet with bank traffic: txs of the chain tracked
 * beside hashes that never land, listed newest first in the state `/v2/tx/status` answers, limited and
 * filtered by source chain and state; bad parameters answer a 400 naming them; the route is in the swagger.
 */

let dir: string;
let devnet: Devnet;
let url: string;
let shutdown: Shutdown;
let chainId: string;
/** In the order tracked: three txs of the chain, and two hashes never on chain between them. */
const tracked: { hash: string; lands: boolean }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-recent-'));
  devnet = await testDevnet({
    seed: 'router-recent',
    vms: ['move'],
    accounts: 2,
    txsPerBlock: 1,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
  });
  devnet.run();
  const chain = devnet.chains[0]!;
  chainId = chain.chain.info.chainId;
  const landed = await until('three txs on chain', async () => {
    const found = (await (
      await fetch(`${chain.urls.rpc}/tx_search?query="tx.height>=1"&per_page=3&order_by="asc"`)
    ).json()) as { result: { txs: { hash: string }[] } };
    return found.result.txs.length >= 3 && found.result.txs.map((t) => t.hash);
  });
  ({ url, shutdown } = await routerOnDevnet(devnet));
  const never = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
  for (const [hash, lands] of [
    [landed[0]!, true],
    [never(), false],
    [landed[1]!, true],
    [never(), false],
    [landed[2]!, true],
  ] as const) {
    const answer = await post(url, '/v2/tx/track', { chain_id: chainId, tx_hash: hash });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    tracked.push({ hash: hash.toLowerCase(), lands });
  }
  for (const t of tracked.filter((t) => t.lands))
    await until(
      `${t.hash} completed`,
      async () => (await status(url, chainId, t.hash)).state === 'STATE_COMPLETED_SUCCESS',
    );
}, 120_000);

afterAll(async () => {
  await shutdown?.kill();
  await devnet?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const recent = async (query = '') => {
  const response = await fetch(`${url}/v2/tx/recent${query}`);
  return { status: response.status, json: (await response.json()) as any };
};
const hashesOf = (answer: { json: { transfers: { tx_hash: string }[] } }) =>
  answer.json.transfers.map((t) => t.tx_hash);
const newest = () => [...tracked].reverse();

describe('GET /v2/tx/recent', () => {
  it('lists the tracked transfers newest first, each in the state /v2/tx/status answers', async () => {
    const all = await recent();
    expect(all.status).toBe(200);
    expect(hashesOf(all)).toEqual(newest().map((t) => t.hash));
    const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
    let previous = Number.POSITIVE_INFINITY;
    for (const transfer of all.json.transfers) {
      expect(Object.keys(transfer).sort()).toEqual([
        'chain_id',
        'created_at',
        'state',
        'tx_hash',
        'updated_at',
      ]);
      expect(transfer.chain_id).toBe(chainId);
      expect(transfer.created_at).toMatch(rfc3339);
      expect(transfer.updated_at).toMatch(rfc3339);
      expect(Date.parse(transfer.created_at)).toBeLessThanOrEqual(previous);
      previous = Date.parse(transfer.created_at);
      const lands = tracked.find((t) => t.hash === transfer.tx_hash)!.lands;
      expect(transfer.state).toBe(lands ? 'STATE_COMPLETED_SUCCESS' : 'STATE_SUBMITTED');
      expect(transfer.state).toBe((await status(url, chainId, transfer.tx_hash)).state);
    }
  });

  it('takes a limit, a source chain and a state', async () => {
    expect(hashesOf(await recent('?limit=2'))).toEqual(
      newest()
        .map((t) => t.hash)
        .slice(0, 2),
    );
    expect(hashesOf(await recent(`?chain_id=${chainId}&limit=100`))).toEqual(newest().map((t) => t.hash));
    expect(hashesOf(await recent('?state=STATE_COMPLETED_SUCCESS'))).toEqual(
      newest()
        .filter((t) => t.lands)
        .map((t) => t.hash),
    );
    expect(hashesOf(await recent(`?state=STATE_SUBMITTED&chain_id=${chainId}&limit=1`))).toEqual([
      newest().find((t) => !t.lands)!.hash,
    ]);
    expect(hashesOf(await recent('?state=STATE_PENDING_ERROR'))).toEqual([]);
    expect(await recent('?chain_id=nowhere-1')).toEqual({
      status: 404,
      json: { code: 5, message: 'chain ID not supported: nowhere-1', details: [] },
    });
  });

  it('answers a 400 naming a bad parameter', async () => {
    for (const [query, name] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?state=STATE_DONE', 'state'],
      ['?chain_id=', 'chain_id'],
    ] as const) {
      const answer = await recent(query);
      expect(answer.status, query).toBe(400);
      expect(answer.json).toEqual({
        code: 3,
        message: expect.stringMatching(new RegExp(`^invalid value for ${name}: `)),
        details: [],
      });
    }
  });

  it('is described in the swagger with its parameters and answer', async () => {
    const doc = (await (await fetch(`${url}/swagger/doc.json`)).json()) as any;
    const get = doc.paths['/v2/tx/recent'].get;
    expect(get.tags).toEqual(['Tracking']);
    expect(get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'chain_id',
      'limit',
      'state',
    ]);
    const item = get.responses['200'].content['application/json'].schema.properties.transfers.items;
    expect(Object.keys(item.properties).sort()).toEqual([
      'chain_id',
      'created_at',
      'state',
      'tx_hash',
      'updated_at',
    ]);
  });
});
