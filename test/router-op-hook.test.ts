import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shutdown } from 'weft/common/shutdown.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { deriveAccount } from 'weft-devnet/keys.js';
import { until } from 'weft-devnet/test-support/until.js';
import { signAndBroadcastEip191 } from './eth-signer-support.js';
import { routerOnDevnet } from './router-api-support.js';
import {
  erc20Balance,
  postJson as postTo,
  signHook,
  waitForAccountCreation,
  wrapperOf,
} from './router-op-hook-support.js';
import { trackingDevnet } from './router-tracking-support.js';
import { bankBalance, decode, sendEvmTx, signAndBroadcast } from './router-wallet-support.js';

/**
 * A route whose OPinit deposit must be followed by a conversion on the rollup, walked as InterwovenKit
 * walks it on the full devnet, by a wallet of an Ethereum key that sends to its own address (the hook
 * runs as the recipient and InterwovenKit signs it as the connected wallet): `/route` says
 * `required_op_hook` → `/op-hook` gives the MsgCalls → they are decoded with the Initia amino types and
 * signed in SIGN_MODE_EIP_191 on the rollup (fee `{amount: [], gas: "1"}`, memo "", the account's current
 * sequence) → `/msgs` with `signed_op_hook` → the deposit signed the same way on the L1 → tracked to
 * `STATE_COMPLETED_SUCCESS`, the recipient holding `amount_out` more of the wrapper token. A hook signed
 * with a wrong sequence ends `STATE_COMPLETED_ERROR`. Out of the wrapper, the way back to the L1 is one
 * rollup tx: `unwrap` then the withdrawal of the coin it pays out. The wallet's account on the rollup exists
 * beforehand; a first-time user's is `router-op-hook-accounts.test.ts`'s.
 */

let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let evm: DevnetChain;
let shutdown: Shutdown;
let url: string;
/** The wrapper token (`evm/<address>`) and its contract, as `/v2/fungible/assets` lists it. */
let wrapper: Awaited<ReturnType<typeof wrapperOf>>;
/**
 * The wallet: an Ethereum key with INIT on the L1 and an account on the rollup with nothing else there
 * (hooks sign with its sequence).
 */
const recipient = deriveAccount({
  seed: 'op-hook/recipient',
  index: 0,
  keyType: 'ethsecp256k1',
  prefix: 'init',
});
const l2 = l2Denom('1', 'uinit');

beforeAll(async () => {
  network = await trackingDevnet('router-op-hook');
  devnet = network.devnet;
  l1 = devnet.l1!;
  evm = devnet.rollups.find((c) => c.vm === 'evm')!;
  ({ url, shutdown } = await routerOnDevnet(devnet));
  wrapper = await wrapperOf(url, evm.chain.info.chainId);
  // The account comes into being with a first transfer to it (a wallet's own EVM tx).
  await sendEvmTx(evm.urls.jsonRpc!, evm.accounts[0]!, {
    chain_id: String(evm.chain.info.evmChainId),
    to: recipient.hexAddress as Hex,
    data: '',
    value: '1000',
  });
  await signAndBroadcast(l1, l1.accounts[1]!, [
    {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: {
        fromAddress: l1.accounts[1]!.address,
        toAddress: recipient.address,
        amount: [{ denom: 'uinit', amount: '100000000' }],
      },
    },
  ]);
}, 120_000);

afterAll(async () => {
  await shutdown?.kill();
  await network?.close();
}, 60_000);

async function post(path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}
const postJson = (path: string, body: unknown) => postTo(url, path, body);

const wrapped = () => erc20Balance(evm, wrapper.contract, recipient.hexAddress);

/**
 * `/op-hook` → InterwovenKit's wait for the account → decode → EIP-191 signature on the rollup
 * (`sequenceOffset` 0: the right one; `count`: how many of the msgs, all by default) → `signed_op_hook`.
 * `approves`: whether the hook must approve first.
 */
async function signedOpHook(approves: boolean, sequenceOffset = 0, count?: number) {
  const answer = await postJson('/op-hook', {
    source_address: recipient.address,
    source_asset_chain_id: l1.chain.info.chainId,
    source_asset_denom: 'uinit',
    dest_address: recipient.address,
    dest_asset_chain_id: evm.chain.info.chainId,
    dest_asset_denom: wrapper.denom,
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  expect(answer.json.chain_id).toBe(evm.chain.info.chainId);
  const messages = answer.json.hook.map(decode);
  expect(messages).toHaveLength(approves ? 2 : 1);
  for (const m of messages)
    expect(m).toMatchObject({ typeUrl: '/minievm.evm.v1.MsgCall', value: { sender: recipient.address } });
  // approve(wrapper, 2^256-1) on the coin's ERC20, then wrapAll() on the wrapper.
  if (approves)
    expect(messages[0].value.input).toBe(
      `0x095ea7b3${wrapper.contract.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`,
    );
  expect(messages.at(-1).value).toMatchObject({ contractAddr: wrapper.contract, input: '0x4c84c1c8' });
  const { accountNumber, sequence } = await waitForAccountCreation(evm.urls.rest, recipient.address);
  return signHook(recipient, answer.json, { accountNumber, sequence: sequence + sequenceOffset }, count);
}

/**
 * `/route` then `/msgs` of a deposit into the wrapper, signed on the L1 by cosmjs; answers the route and
 * hash. `approves`: whether the hook approves first (no earlier approval stands).
 */
async function depositWrapped(amountIn: string, approves: boolean, sequenceOffset = 0) {
  const request = {
    source_asset_denom: 'uinit',
    source_asset_chain_id: l1.chain.info.chainId,
    dest_asset_denom: wrapper.denom,
    dest_asset_chain_id: evm.chain.info.chainId,
    amount_in: amountIn,
  };
  const routed = await postJson('/v2/fungible/route', request);
  expect(routed.status, JSON.stringify(routed.json)).toBe(200);
  const body = {
    ...request,
    amount_out: routed.json.amount_out,
    address_list: [recipient.address, recipient.address],
    operations: routed.json.operations,
    slippage_tolerance_percent: '1',
  };
  const refused = await postJson('/v2/fungible/msgs', body);
  expect([refused.status, refused.json.code]).toEqual([400, 3]);
  expect(refused.json.message).toMatch(/^Op hook is required/);
  if (approves) {
    // A hook that does not convert (the approval alone) is refused too.
    const partial = await postJson('/v2/fungible/msgs', {
      ...body,
      signed_op_hook: await signedOpHook(approves, sequenceOffset, 1),
    });
    expect([partial.status, partial.json.message]).toEqual([
      400,
      expect.stringMatching(/^signed_op_hook.hook does not call wrapAll\(\)/),
    ]);
  }
  const built = await postJson('/v2/fungible/msgs', {
    ...body,
    signed_op_hook: await signedOpHook(approves, sequenceOffset),
  });
  expect(built.status, JSON.stringify(built.json)).toBe(200);
  const msgs = built.json.txs[0].cosmos_tx.msgs.map(decode);
  expect(msgs[0].value.data.length).toBeGreaterThan(0);
  return { routed: routed.json, hash: await signAndBroadcastEip191(l1, recipient, msgs, 400_000) };
}

/** `POST /v2/tx/track`, then `GET /v2/tx/status` until a terminal state; answers the last status. */
async function trackToEnd(hash: string) {
  const chainId = l1.chain.info.chainId;
  const tracked = await postJson('/v2/tx/track', { tx_hash: hash, chain_id: chainId });
  expect(tracked.status, JSON.stringify(tracked.json)).toBe(200);
  return until(
    `${hash} to end`,
    async () => {
      const answer = (await (
        await fetch(`${url}/v2/tx/status?tx_hash=${hash}&chain_id=${chainId}`)
      ).json()) as any;
      return answer.status === 'STATE_COMPLETED' && answer;
    },
    60_000,
  );
}

describe('a deposit whose op hook wraps what arrives', () => {
  it('routes L1 INIT to the wrapper as one OPinit deposit that needs a hook, byte-equal for equal inputs', async () => {
    const request = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: l1.chain.info.chainId,
      dest_asset_denom: wrapper.denom,
      dest_asset_chain_id: evm.chain.info.chainId,
      amount_in: '5000',
    };
    const first = await post('/v2/fungible/route', request);
    expect(first.status, first.text).toBe(200);
    expect((await post('/v2/fungible/route', request)).text).toBe(first.text);
    const routed = JSON.parse(first.text);
    expect(routed).toMatchObject({
      amount_out: '5000',
      required_op_hook: true,
      estimated_route_duration_seconds: 15,
      chain_ids: [l1.chain.info.chainId, evm.chain.info.chainId],
      txs_required: 1,
    });
    expect(routed.operations).toEqual([
      {
        op_init_transfer: {
          from_chain_id: l1.chain.info.chainId,
          to_chain_id: evm.chain.info.chainId,
          denom_in: 'uinit',
          denom_out: wrapper.denom,
          op_init_bridge_id: '1',
          bridge_id: 'OPINIT',
          smart_relay: false,
        },
        tx_index: 0,
        amount_in: '5000',
        amount_out: '5000',
      },
    ]);
    expect(routed.extra_infos.join(' ')).toMatch(/hook/);
    // The plain deposit needs none.
    const plain = await postJson('/v2/fungible/route', { ...request, dest_asset_denom: l2 });
    expect(plain.json.required_op_hook).toBe(false);
  });

  it('answers /op-hook only for such a pair, and JSON 4xx naming what is wrong', async () => {
    const base = {
      source_address: recipient.address,
      source_asset_chain_id: l1.chain.info.chainId,
      source_asset_denom: 'uinit',
      dest_address: recipient.address,
      dest_asset_chain_id: evm.chain.info.chainId,
      dest_asset_denom: wrapper.denom,
    };
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ ...base, dest_asset_denom: l2 }, 400, /needs no hook/],
      [{ ...base, dest_address: 'cosmos1xyz' }, 400, /address for chain weft-evm-1/],
      [{ ...base, source_address: '' }, 400, /missing address for chain weft-l1-1/],
      [{ ...base, dest_asset_denom: 'evm/0000000000000000000000000000000000000001' }, 404, /unknown denom/],
      [{ ...base, dest_asset_chain_id: 'nowhere-1' }, 404, /nowhere-1/],
      [{ ...base, dest_address: undefined }, 400, /dest_address/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await postJson('/op-hook', body);
      expect([answer.status, answer.json.message], JSON.stringify(body)).toEqual([
        status,
        expect.stringMatching(message),
      ]);
    }
  });

  it('delivers, runs the hook and tracks the deposit to STATE_COMPLETED_SUCCESS: the recipient holds amount_out more of the wrapper', async () => {
    const before = await wrapped();
    const { routed, hash } = await depositWrapped('250000', true);
    const done = await trackToEnd(hash);
    expect(done.state, JSON.stringify(done)).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfer_sequence[0].op_init_transfer).toMatchObject({
      state: 'OPINIT_TRANSFER_RECEIVED',
      success: true,
    });
    expect(await wrapped()).toBe(before + BigInt(routed.amount_out));
    // Every coin that arrived was wrapped.
    expect(await bankBalance(evm, recipient.address, l2)).toBe(0n);
  }, 90_000);

  it('ends STATE_COMPLETED_ERROR with the reason when the hook fails (signed with a wrong sequence)', async () => {
    const before = await wrapped();
    // The first hook's unlimited approval stands: this one only wraps.
    const { routed, hash } = await depositWrapped('70000', false, 5);
    const done = await trackToEnd(hash);
    expect(done.state, JSON.stringify(done)).toBe('STATE_COMPLETED_ERROR');
    expect(done.error.message).toMatch(/^hook failed; .*account sequence mismatch/);
    expect(done.transfer_asset_release).toEqual({
      chain_id: evm.chain.info.chainId,
      denom: l2,
      amount: '70000',
      released: true,
    });
    // The deposit is credited as the bridged coin, unwrapped.
    expect(await wrapped()).toBe(before);
    expect(await bankBalance(evm, recipient.address, l2)).toBe(BigInt(routed.amount_out));
  }, 90_000);
});

describe('out of the wrapper', () => {
  it('unwraps and withdraws to the L1 in one rollup tx, signed by the holder and tracked from the rollup', async () => {
    const held = await wrapped();
    expect(held).toBeGreaterThanOrEqual(100_000n);
    const coinBefore = await bankBalance(evm, recipient.address, l2);
    const request = {
      source_asset_denom: wrapper.denom,
      source_asset_chain_id: evm.chain.info.chainId,
      dest_asset_denom: 'uinit',
      dest_asset_chain_id: l1.chain.info.chainId,
      amount_in: '100000',
    };
    const routed = await postJson('/v2/fungible/route', request);
    expect(routed.status, JSON.stringify(routed.json)).toBe(200);
    expect(routed.json).toMatchObject({ amount_out: '100000', required_op_hook: false });
    expect(routed.json.operations).toMatchObject([
      {
        op_init_transfer: { denom_in: wrapper.denom, denom_out: 'uinit', to_chain_id: l1.chain.info.chainId },
      },
    ]);
    const built = await postJson('/v2/fungible/msgs', {
      ...request,
      amount_out: routed.json.amount_out,
      address_list: [recipient.address, recipient.address],
      operations: routed.json.operations,
      slippage_tolerance_percent: '1',
    });
    expect(built.status, JSON.stringify(built.json)).toBe(200);
    const msgs = built.json.txs[0].cosmos_tx.msgs.map(decode);
    // unwrap(100000) on the wrapper, then the withdrawal of the coin it paid out.
    expect(msgs).toMatchObject([
      {
        typeUrl: '/minievm.evm.v1.MsgCall',
        value: { sender: recipient.address, contractAddr: wrapper.contract },
      },
      {
        typeUrl: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
        value: { sender: recipient.address, to: recipient.address, amount: { denom: l2, amount: '100000' } },
      },
    ]);
    // The rollup's fee, in its own fee denom, which the holder gets first (a wallet pays its own).
    const gas = 600_000;
    await sendEvmTx(evm.urls.jsonRpc!, evm.accounts[0]!, {
      chain_id: String(evm.chain.info.evmChainId),
      to: recipient.hexAddress as Hex,
      data: '',
      value: String(Math.ceil(gas * evm.chain.info.minGasPrice)),
    });
    const hash = await signAndBroadcastEip191(evm, recipient, msgs, gas);
    const chainId = evm.chain.info.chainId;
    expect((await postJson('/v2/tx/track', { tx_hash: hash, chain_id: chainId })).status).toBe(200);
    // The withdrawal waits for its claim on the L1 (router-e2e-settle.test.ts walks one to the end).
    const pending = await until('the withdrawal tracked', async () => {
      const answer = (await (
        await fetch(`${url}/v2/tx/status?tx_hash=${hash}&chain_id=${chainId}`)
      ).json()) as any;
      return answer.transfer_sequence?.[0]?.op_init_transfer && answer;
    });
    expect(pending).toMatchObject({ state: 'STATE_PENDING' });
    expect(pending.transfer_sequence[0].op_init_transfer).toMatchObject({
      from_chain_id: chainId,
      to_chain_id: l1.chain.info.chainId,
    });
    expect(await wrapped()).toBe(held - 100_000n);
    expect(await bankBalance(evm, recipient.address, l2)).toBe(coinBefore);
  }, 90_000);
});
