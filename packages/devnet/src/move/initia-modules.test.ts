import { bcs as initiaBcs } from '@initia/initia.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevChain } from '../dev-chain.js';
import type { Devnet } from '../devnet.js';
import { l1Parts } from '../network/chains.js';
import { type NodeServers, startNodeServers } from '../servers/index.js';
import { testDevnet } from '../test-support/devnet.js';
import { createTestL1 } from '../test-support/l1.js';
import { signTx } from '../tx/sign.js';
import { INITIA_MODULES } from './initia-modules.js';
import { moveAddresses, moveMsgs } from './msgs.js';

/**
 * The views InterwovenKit calls on the L1's Initia modules (its portfolio, its username lookups), over
 * loopback HTTP against the L1 as the network builds it, with the args BCS-encoded as InterwovenKit encodes
 * them (`@initia/utils`' `bcs`, whose address is 32 bytes, like initia.js's). The devnet's accounts have no
 * name, no locked delegation and no vault stake, and the answers say so as the real modules would.
 */

let l1: DevChain;
let servers: NodeServers;
let network: Devnet | undefined;
let account: string;
let collection: string;

beforeAll(async () => {
  l1 = await createTestL1('initia-modules-l1', l1Parts);
  await l1.chain.produceBlock();
  const signer = l1.accounts[0]!;
  account = signer.address;
  // An object that is not a vault, to pass where a vault is expected.
  const raw = signTx({
    msgs: [moveMsgs.createCollection(account, { name: 'Not A Vault', maxSupply: 1n })],
    fee: { amount: [{ denom: 'uinit', amount: '45000' }], gasLimit: 3_000_000n },
    signer,
    chainId: l1.chain.info.chainId,
    accountNumber: l1.chain.account(account)!.accountNumber,
    sequence: l1.chain.account(account)!.sequence,
  });
  expect((await l1.chain.broadcastTx(raw)).code).toBe(0);
  await l1.chain.produceBlock();
  collection = moveAddresses.collection(account, 'Not A Vault');
  servers = await startNodeServers(l1.chain, {});
});

afterAll(async () => {
  await servers?.close();
  await network?.close();
});

/** `createMoveClient(restUrl).viewFunction` of `@initia/utils`: the call in the path, BCS args in base64. */
async function viewFunction(
  moduleAddress: string,
  moduleName: string,
  functionName: string,
  args: string[],
  rest = servers.urls.rest,
) {
  const path = `/initia/move/v1/accounts/${moduleAddress}/modules/${moduleName}/view_functions/${functionName}`;
  const res = await fetch(`${rest}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type_args: [], args }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const addressArg = (address: string) => initiaBcs.address().serialize(address).toBase64();
const objectArg = (address: string) => initiaBcs.object().serialize(address).toBase64();
const stringArg = (text: string) => initiaBcs.string().serialize(text).toBase64();
const u64Arg = (n: string) => initiaBcs.u64().serialize(n).toBase64();

/** A view's answer as InterwovenKit reads it: `JSON.parse(data)`, or the node's error message. */
function answered(res: { status: number; body: Record<string, unknown> }): unknown {
  expect(res, String(res.body.message)).toEqual({
    status: 200,
    body: { data: expect.any(String), events: [], gas_used: expect.any(String) },
  });
  return JSON.parse(res.body.data as string);
}

describe('usernames', () => {
  it('get_name_from_address answers none (null) for a devnet account, so InterwovenKit shows no name', async () => {
    const arg = addressArg(account);
    expect(Buffer.from(arg, 'base64')).toHaveLength(32);
    const res = await viewFunction(INITIA_MODULES.usernames, 'usernames', 'get_name_from_address', [arg]);
    expect(answered(res)).toBeNull();
    expect(res.body.data).toBe('null');
  });

  it('get_address_from_name answers none (null) for a name, as nobody registered one', async () => {
    const res = await viewFunction(INITIA_MODULES.usernames, 'usernames', 'get_address_from_name', [
      stringArg('alice'),
    ]);
    expect(answered(res)).toBeNull();
  });

  it("answers a function the module does not have with the VM's resolution failure", async () => {
    const res = await viewFunction(INITIA_MODULES.usernames, 'usernames', 'no_such_view', []);
    expect(res).toMatchObject({ status: 500, body: { code: 2, details: [] } });
    expect(String(res.body.message)).toBe(
      'VM error: status FUNCTION_RESOLUTION_FAILURE of type Verification',
    );
  });

  it("refuses an argument that is not the function's type, as movevm does", async () => {
    const res = await viewFunction(INITIA_MODULES.usernames, 'usernames', 'get_name_from_address', [
      stringArg('alice'),
    ]);
    expect(String(res.body.message)).toMatch(/FAILED_TO_DESERIALIZE_ARGUMENT/);
  });
});

describe('lock_staking', () => {
  it('get_locked_delegations answers the empty list for a devnet account', async () => {
    const res = await viewFunction(INITIA_MODULES.lockStaking, 'lock_staking', 'get_locked_delegations', [
      addressArg(account),
    ]);
    expect(answered(res)).toEqual([]);
    expect(res.body.data).toBe('[]');
  });
});

describe('vault_staking and vault', () => {
  it('user_staked_tokens answers the empty list for a devnet account', async () => {
    const res = await viewFunction(INITIA_MODULES.clammVault, 'vault_staking', 'user_staked_tokens', [
      addressArg(account),
    ]);
    expect(answered(res)).toEqual([]);
    expect(res.body.data).toBe('[]');
  });

  it('aborts in 0x1::object when a vault view is given an address where no vault is', async () => {
    const vault = INITIA_MODULES.clammVault;
    const missing = await viewFunction(vault, 'vault', 'vault_info', [objectArg('0x1234')]);
    expect(missing).toMatchObject({ status: 500, body: { code: 2 } });
    // EOBJECT_DOES_NOT_EXIST: nothing at all lives at that address.
    expect(missing.body.message).toBe(`VM aborted: location=${'0'.repeat(63)}1::object, code=393218`);
    // ERESOURCE_DOES_NOT_EXIST: an object (a collection) that holds no Vault.
    const notVault = await viewFunction(vault, 'vault', 'vault_share_to_asset', [
      objectArg(collection),
      u64Arg('1000'),
    ]);
    expect(notVault.body.message).toBe(`VM aborted: location=${'0'.repeat(63)}1::object, code=393223`);
    const rewards = await viewFunction(vault, 'vault', 'user_claimable_rewards', [
      objectArg(collection),
      addressArg(account),
    ]);
    expect(rewards.body.message).toMatch(/::object, code=393223$/);
  });
});

describe('view/json (Query/ViewJSON)', () => {
  it('answers the same views with JSON args', async () => {
    const res = await fetch(`${servers.urls.rest}/initia/move/v1/view/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        address: INITIA_MODULES.lockStaking,
        module_name: 'lock_staking',
        function_name: 'get_locked_delegations',
        type_args: [],
        args: [JSON.stringify(moveAddresses.account(account))],
      }),
    });
    expect(await res.json()).toMatchObject({ data: '[]', events: [] });
  });
});

describe('on the full network', () => {
  it('publishes the modules on the L1 alone, at the addresses the manifest gives', async () => {
    // The L1 of the network also carries the omnichain package, whose node hands other addresses on.
    network = await testDevnet({
      seed: 'initia-modules',
      vms: ['move'],
      network: 'full',
      accounts: 1,
      txsPerBlock: 0,
    });
    await network.fastForward(1);
    const chains = network.manifest().chains;
    const l1Entry = chains.find((c) => c.role === 'l1')!;
    const rollup = chains.find((c) => c.role === 'rollup')!;
    const { usernames } = INITIA_MODULES;
    const user = addressArg(l1Entry.accounts[0]!.address);
    const onL1 = await viewFunction(usernames, 'usernames', 'get_name_from_address', [user], l1Entry.rest!);
    expect(answered(onL1)).toBeNull();
    const onRollup = await viewFunction(
      usernames,
      'usernames',
      'get_name_from_address',
      [user],
      rollup.rest!,
    );
    expect(onRollup.body.message).toBe('VM error: status LINKER_ERROR of type Verification');
    expect(l1Entry.initia_modules).toEqual({
      usernames: INITIA_MODULES.usernames,
      lock_staking: INITIA_MODULES.lockStaking,
      clamm_vault: INITIA_MODULES.clammVault,
    });
    expect(rollup.initia_modules).toBeNull();
  }, 60_000);
});
