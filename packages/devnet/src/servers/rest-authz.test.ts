import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { createRollup, type Rollup } from '../rollup.js';
import { type NodeServers, startNodeServers } from './index.js';

/**
 * The authz and feegrant queries of InterwovenKit's auto-signing views ("Manage auto-signing" lists a
 * granter's grants on every chain), over loopback HTTP: the devnet's chains hold no grant or allowance.
 */

let rollup: Rollup;
let servers: NodeServers;

beforeAll(async () => {
  rollup = await createRollup({
    vm: 'wasm',
    chainId: 'authz-rest-1',
    seed: 'authz-rest',
    accounts: 2,
    blockTimeMs: 1000,
    logger: silentLogger(),
  });
  await rollup.chain.produceBlock();
  servers = await startNodeServers(rollup.chain, {});
});

afterAll(async () => {
  await servers?.close();
});

const get = async (path: string) => {
  const res = await fetch(`${servers.urls.rest}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('authz', () => {
  it("lists a granter's grants as GranterGrants does for an empty store", async () => {
    const granter = rollup.accounts[0]!.address;
    expect(await get(`/cosmos/authz/v1beta1/grants/granter/${granter}`)).toEqual({
      status: 200,
      body: { grants: [], pagination: { next_key: null, total: '0' } },
    });
    const bad = await get('/cosmos/authz/v1beta1/grants/granter/init1broken');
    expect(bad).toMatchObject({ status: 500, body: { code: 2 } });
    expect(String(bad.body.message)).toMatch(/^decoding bech32 failed: /);
  });

  it('lists the grants of a granter-grantee pair, and finds none of a msg type', async () => {
    const [granter, grantee] = rollup.accounts.map((a) => a.address);
    const pair = `granter=${granter}&grantee=${grantee}`;
    expect(await get(`/cosmos/authz/v1beta1/grants?${pair}`)).toEqual({
      status: 200,
      body: { grants: [], pagination: { next_key: null, total: '0' } },
    });
    const typed = await get(`/cosmos/authz/v1beta1/grants?${pair}&msg_type_url=/cosmos.bank.v1beta1.MsgSend`);
    expect(typed).toEqual({
      status: 500,
      body: {
        code: 2,
        message:
          'codespace authz code 2: authorization not found: authorization not found for /cosmos.bank.v1beta1.MsgSend type',
        details: [],
      },
    });
  });
});

describe('feegrant', () => {
  it('finds no allowance: the Internal error InterwovenKit reads as none', async () => {
    const [granter, grantee] = rollup.accounts.map((a) => a.address);
    const res = await get(`/cosmos/feegrant/v1beta1/allowance/${granter}/${grantee}`);
    expect(res).toMatchObject({ status: 500, body: { code: 13, details: [] } });
    expect(String(res.body.message)).toMatch(/^collections: not found: key /);
    expect(await get(`/cosmos/feegrant/v1beta1/allowance/init1broken/${grantee}`)).toMatchObject({
      status: 500,
      body: { code: 2 },
    });
  });
});
