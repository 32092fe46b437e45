import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bcs } from 'weft/chain/bcs.js';
import type { DevChain } from '../dev-chain.js';
import { moveAddresses, moveMsgs } from '../move/msgs.js';
import { l1Parts } from '../network/chains.js';
import { createTestL1 } from '../test-support/l1.js';
import { signTx } from '../tx/sign.js';
import type { AnyMsg } from '../types.js';
import { type NodeServers, startNodeServers } from './index.js';

/**
 * The Move queries InterwovenKit makes of a Move chain's REST, over loopback HTTP against the L1 as the
 * network builds it: views through `view_functions` (its `createMoveClient`, BCS args; the Initia modules'
 * views are in `move/initia-modules.test.ts`) and `view/json` (the NFT send's `0x1::collection::name`), and
 * `denom` (metadata to denom).
 */

let l1: DevChain;
let servers: NodeServers;
let collection: string;

/** `denomToMetadata("uinit")` of `@initia/utils`, as its README gives it. */
const UINIT_METADATA = '0x8e4733bdabcf7d4afc3d14f0dd46c9bf52fb0fce9e4b996c939e195b8bc891d9';
/**
 * InterwovenKit's default `usernamesModuleAddress`, Initia mainnet's: the devnet publishes its usernames module
 * at an address of its own, and nothing here.
 */
const USERNAMES = '0x72ed9b26ecdcd6a21d304df50f19abfdbe31d2c02f60c84627844620a45940ef';

async function commit(msgs: AnyMsg[]) {
  const signer = l1.accounts[0]!;
  const account = l1.chain.account(signer.address)!;
  const raw = signTx({
    msgs,
    fee: { amount: [{ denom: 'uinit', amount: '45000' }], gasLimit: 3_000_000n },
    signer,
    chainId: l1.chain.info.chainId,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
  });
  expect((await l1.chain.broadcastTx(raw)).code).toBe(0);
  const block = await l1.chain.produceBlock();
  expect(block.txs[0]!.result.log).toBe('');
}

beforeAll(async () => {
  l1 = await createTestL1('move-rest-l1', l1Parts);
  await l1.chain.produceBlock();
  const creator = l1.accounts[0]!.address;
  await commit([moveMsgs.createCollection(creator, { name: 'Weft Cats', maxSupply: 10n })]);
  collection = moveAddresses.collection(creator, 'Weft Cats');
  servers = await startNodeServers(l1.chain, {});
});

afterAll(async () => {
  await servers?.close();
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${servers.urls.rest}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const get = async (path: string, height?: number) => {
  const res = await fetch(`${servers.urls.rest}${path}`, {
    headers: height === undefined ? {} : { 'x-cosmos-block-height': String(height) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const addressArg = (hex: string) => b64(bcs.address(Buffer.from(hex.slice(2).padStart(64, '0'), 'hex')));
const viewFunction = (address: string, module: string, fn: string) =>
  `/initia/move/v1/accounts/${address}/modules/${module}/view_functions/${fn}`;

describe('view_functions (Query/LegacyView)', () => {
  it('runs a view with BCS args and answers its return value as JSON, as @initia/utils reads it', async () => {
    const res = await post(viewFunction('0x1', 'collection', 'name'), {
      type_args: ['0x1::collection::Collection'],
      args: [addressArg(collection)],
    });
    expect(res).toEqual({
      status: 200,
      body: { data: '"Weft Cats"', events: [], gas_used: expect.any(String) },
    });
    expect(JSON.parse(res.body.data as string)).toBe('Weft Cats');
  });

  it("answers a module the chain does not have with the VM's linker error (mainnet's usernames address)", async () => {
    const account = l1.accounts[0]!.address;
    const bytes = Buffer.from(moveAddresses.account(account).slice(2).padStart(64, '0'), 'hex');
    const res = await post(viewFunction(USERNAMES, 'usernames', 'get_name_from_address'), {
      type_args: [],
      args: [b64(bytes)],
    });
    expect(res).toMatchObject({ status: 500, body: { code: 2, details: [] } });
    expect(String(res.body.message)).toMatch(/LINKER_ERROR/);
  });

  it('answers the aborts and VM errors a view meets', async () => {
    const missing = await post(viewFunction('0x1', 'collection', 'name'), {
      type_args: ['0x1::collection::Collection'],
      args: [addressArg('0x1234')],
    });
    expect(missing).toMatchObject({ status: 500, body: { code: 2 } });
    expect(String(missing.body.message)).toMatch(/^VM aborted: location=0{63}1::object, code=393218/);
    const unknownFn = await post(viewFunction('0x1', 'collection', 'no_such_view'), {
      type_args: [],
      args: [],
    });
    expect(String(unknownFn.body.message)).toMatch(/FUNCTION_RESOLUTION_FAILURE/);
    const badArg = await post(viewFunction('0x1', 'collection', 'name'), {
      type_args: ['0x1::collection::Collection'],
      args: [b64(Uint8Array.of(1, 2, 3))],
    });
    expect(String(badArg.body.message)).toMatch(/FAILED_TO_DESERIALIZE_ARGUMENT/);
    const notBase64 = await post(viewFunction('0x1', 'collection', 'name'), { args: ['%%%'] });
    expect(notBase64).toMatchObject({ status: 400, body: { code: 3 } });
  });

  it('reads the state at the x-cosmos-block-height height', async () => {
    const res = await fetch(`${servers.urls.rest}${viewFunction('0x1', 'collection', 'name')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-cosmos-block-height': '1' },
      body: JSON.stringify({ type_args: ['0x1::collection::Collection'], args: [addressArg(collection)] }),
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { message: string }).message).toMatch(/::object, code=393218/);
  });
});

describe('view/json (Query/ViewJSON)', () => {
  it("names a collection as InterwovenKit's NFT send asks it", async () => {
    const res = await post('/initia/move/v1/view/json', {
      address: '0x1',
      module_name: 'collection',
      function_name: 'name',
      type_args: ['0x1::collection::Collection'],
      args: [JSON.stringify(collection)],
    });
    expect(res).toMatchObject({ status: 200, body: { data: '"Weft Cats"', events: [] } });
  });
});

describe('denom (Query/Denom)', () => {
  it("answers a coin's denom from its fungible asset metadata address", async () => {
    expect(await get(`/initia/move/v1/denom?metadata=${UINIT_METADATA}`)).toEqual({
      status: 200,
      body: { denom: 'uinit' },
    });
  });

  it('answers metadata no coin has, and a bad address, with plain errors', async () => {
    const unknown = await get('/initia/move/v1/denom?metadata=0x1234');
    expect(unknown).toMatchObject({ status: 500, body: { code: 2, details: [] } });
    expect(String(unknown.body.message)).toMatch(/^collections: not found/);
    expect(await get('/initia/move/v1/denom?metadata=init1broken')).toMatchObject({
      status: 500,
      body: { code: 2 },
    });
  });
});
