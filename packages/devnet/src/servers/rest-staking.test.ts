import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import type { DevChain } from '../dev-chain.js';
import { createRollup, type Rollup } from '../rollup.js';
import { createTestL1 } from '../test-support/l1.js';
import { type NodeServers, startNodeServers } from './index.js';

/**
 * The L1's staking and distribution queries a wallet's portfolio reads (InterwovenKit's Initia staking
 * positions), over loopback HTTP: no stake is ever bonded on the devnet's L1, so every delegator has none.
 */

let l1: DevChain;
let l1Servers: NodeServers;
let rollup: Rollup;
let rollupServers: NodeServers;

beforeAll(async () => {
  l1 = await createTestL1('staking-l1');
  await l1.chain.produceBlock();
  await l1.chain.produceBlock();
  l1Servers = await startNodeServers(l1.chain, {});
  rollup = await createRollup({
    vm: 'move',
    chainId: 'staking-rollup-1',
    seed: 'staking-rollup',
    accounts: 1,
    blockTimeMs: 1000,
    logger: silentLogger(),
  });
  await rollup.chain.produceBlock();
  rollupServers = await startNodeServers(rollup.chain, {});
});

afterAll(async () => {
  await l1Servers?.close();
  await rollupServers?.close();
});

const get = async (servers: NodeServers, path: string, height?: number) => {
  const res = await fetch(`${servers.urls.rest}${path}`, {
    headers: height === undefined ? {} : { 'x-cosmos-block-height': String(height) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('initia mstaking', () => {
  it("answers a delegator's delegations as DelegatorDelegations does: none, with the counted page", async () => {
    const delegator = l1.accounts[0]!.address;
    expect(await get(l1Servers, `/initia/mstaking/v1/delegations/${delegator}`)).toEqual({
      status: 200,
      body: { delegation_responses: [], pagination: { next_key: null, total: '0' } },
    });
    expect(
      await get(l1Servers, `/initia/mstaking/v1/delegations/${delegator}?pagination.limit=10`, 1),
    ).toEqual({
      status: 200,
      body: { delegation_responses: [], pagination: { next_key: null, total: '0' } },
    });
    expect(
      await get(l1Servers, `/initia/mstaking/v1/delegations/${delegator}?status=BOND_STATUS_BONDED`),
    ).toMatchObject({ status: 200, body: { delegation_responses: [] } });
  });

  it("answers a delegator's unbonding delegations: none", async () => {
    const delegator = l1.accounts[1]!.address;
    expect(await get(l1Servers, `/initia/mstaking/v1/delegators/${delegator}/unbonding_delegations`)).toEqual(
      {
        status: 200,
        body: { unbonding_responses: [], pagination: { next_key: null, total: '0' } },
      },
    );
  });

  it('refuses bad addresses and statuses with InvalidArgument, as the query server does', async () => {
    const bad = await get(l1Servers, '/initia/mstaking/v1/delegations/init1notanaddress');
    expect(bad).toMatchObject({ status: 400, body: { code: 3, details: [] } });
    expect(String(bad.body.message)).toMatch(/^decoding bech32 failed: /);
    const wrongPrefix = await get(
      l1Servers,
      '/initia/mstaking/v1/delegators/cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu/unbonding_delegations',
    );
    expect(wrongPrefix).toMatchObject({
      status: 400,
      body: {
        code: 3,
        message: "hrp does not match bech32 prefix: expected 'init' got 'cosmos': internal logic error",
      },
    });
    const delegator = l1.accounts[0]!.address;
    expect(await get(l1Servers, `/initia/mstaking/v1/delegations/${delegator}?status=BONDED`)).toMatchObject({
      status: 400,
      body: { code: 3, message: 'invalid validator status BONDED' },
    });
  });
});

describe('initia distribution', () => {
  it("answers a delegator's total rewards as DelegationTotalRewards does: no rewards, no total", async () => {
    const delegator = l1.accounts[0]!.address;
    expect(await get(l1Servers, `/initia/distribution/v1/delegators/${delegator}/rewards`)).toEqual({
      status: 200,
      body: { rewards: [], total: [] },
    });
    // The address codec's error reaches the gateway as a plain error: Unknown, HTTP 500.
    const bad = await get(l1Servers, '/initia/distribution/v1/delegators/init1broken/rewards');
    expect(bad).toMatchObject({ status: 500, body: { code: 2 } });
    expect(String(bad.body.message)).toMatch(/^decoding bech32 failed: /);
  });
});

describe('a rollup', () => {
  it('has neither module: its gateway answers 501', async () => {
    const address = rollup.accounts[0]!.address;
    for (const path of [
      `/initia/mstaking/v1/delegations/${address}`,
      `/initia/mstaking/v1/delegators/${address}/unbonding_delegations`,
      `/initia/distribution/v1/delegators/${address}/rewards`,
    ]) {
      expect(await get(rollupServers, path)).toMatchObject({ status: 501, body: { code: 12 } });
    }
  });
});
