import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shutdown } from 'weft/common/shutdown.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { deriveAccount } from 'weft-devnet/keys.js';
import { opHookFunderAccount } from 'weft-devnet/opinit/op-hook-funder.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { signAndBroadcastEip191 } from './eth-signer-support.js';
import { routerOnDevnet, trackToEnd } from './router-api-support.js';
import {
  accountInfo,
  erc20Balance,
  postJson,
  signHook,
  waitForAccountCreation,
  wrapperOf,
} from './router-op-hook-support.js';
import { bankBalance, decode, signAndBroadcast } from './router-wallet-support.js';

/**
 * The op hook of a first-time user, as InterwovenKit's `useSignOpHook` walks it: a wallet of an Ethereum
 * key with INIT on the L1 and no account yet on the EVM rollup posts `/op-hook` (its own address as
 * source and destination), waits for its account on the rollup (2 minutes at most), signs the hook with
 * that account's number and sequence, and sends the deposit. The router creates the account from its
 * funder key (the devnet funds one at genesis); without a funder it says so at once; it refuses a hook
 * for another recipient, and creates no more accounts a minute than its cap.
 */

const SEED = 'router-op-hook-accounts';
const dir = mkdtempSync(join(tmpdir(), 'weft-op-hook-accounts-'));
let devnet: Devnet;
let l1: DevnetChain;
let evm: DevnetChain;
const routers: Record<'funded' | 'plain' | 'capped' | 'unfunded', { url: string; shutdown: Shutdown }> =
  {} as never;
let wrapper: Awaited<ReturnType<typeof wrapperOf>>;
const l2 = l2Denom('1', 'uinit');

/** A wallet no devnet account has: its address exists nowhere until the test funds it on the L1. */
const freshWallet = (name: string) =>
  deriveAccount({ seed: `${SEED}/${name}`, index: 0, keyType: 'ethsecp256k1', prefix: 'init' });

beforeAll(async () => {
  devnet = await testDevnet({
    seed: SEED,
    vms: ['evm'],
    network: 'full',
    accounts: 4,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
  });
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
  l1 = devnet.l1!;
  evm = devnet.rollups[0]!;
  routers.funded = await routerOnDevnet(devnet, {
    ROUTER_OP_HOOK_FUNDER_KEY: opHookFunderAccount(SEED).privateKey,
  });
  routers.plain = await routerOnDevnet(devnet);
  // Its own funder (an account the devnet funds on the rollup), so the two funders never share a sequence.
  routers.capped = await routerOnDevnet(devnet, {
    ROUTER_OP_HOOK_FUNDER_KEY: evm.accounts[3]!.privateKey,
    ROUTER_OP_HOOK_FUNDER_RATE: '1',
  });
  routers.unfunded = await routerOnDevnet(devnet, {
    ROUTER_OP_HOOK_FUNDER_KEY: freshWallet('unfunded-funder').privateKey,
  });
  wrapper = await wrapperOf(routers.funded.url, evm.chain.info.chainId);
}, 120_000);

afterAll(async () => {
  for (const router of Object.values(routers)) await router?.shutdown.kill();
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The `/op-hook` request InterwovenKit makes for a deposit of L1 INIT into the wrapper. */
const opHookRequest = (source: string, dest: string) => ({
  source_address: source,
  source_asset_chain_id: l1.chain.info.chainId,
  source_asset_denom: 'uinit',
  dest_address: dest,
  dest_asset_chain_id: evm.chain.info.chainId,
  dest_asset_denom: wrapper.denom,
});

/** INIT on the L1 for `address` (its account there), from a devnet account. */
const fundOnL1 = (address: string, amount = '50000000') =>
  signAndBroadcast(l1, l1.accounts[2]!, [
    {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: {
        fromAddress: l1.accounts[2]!.address,
        toAddress: address,
        amount: [{ denom: 'uinit', amount }],
      },
    },
  ]);

describe('the account of a first-time op-hook signer', () => {
  it('is created by the router for a first-time user, whose deposit then arrives wrapped', async () => {
    const { url } = routers.funded;
    const wallet = freshWallet('first-time');
    await fundOnL1(wallet.address);
    expect(await accountInfo(evm.urls.rest, wallet.address)).toBeUndefined();
    const funder = opHookFunderAccount(SEED).address;
    const funderBefore = (await accountInfo(evm.urls.rest, funder))?.sequence;

    // Two /op-hook at once (a wallet re-rendering): one creation only.
    const asked = Date.now();
    const answers = await Promise.all(
      [0, 1].map(() => postJson(url, '/op-hook', opHookRequest(wallet.address, wallet.address))),
    );
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const [answer] = answers;
    expect(answer!.json.chain_id).toBe(evm.chain.info.chainId);
    for (const m of answer!.json.hook.map(decode)) expect(m.value.sender).toBe(wallet.address);

    // InterwovenKit's wait: the account within 2 minutes of the answer, then the signature with its state.
    const account = await waitForAccountCreation(evm.urls.rest, wallet.address, asked);
    expect(Date.now() - asked).toBeLessThan(120_000);
    expect(account.sequence).toBe(0);
    // The funder sent once: a second send would have landed by now (blocks are 200 ms apart).
    await new Promise((r) => setTimeout(r, 1000));
    expect(funderBefore).toBeDefined();
    expect((await accountInfo(evm.urls.rest, funder))?.sequence).toBe(funderBefore! + 1);
    const signed = await signHook(wallet, answer!.json, account);

    const request = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: l1.chain.info.chainId,
      dest_asset_denom: wrapper.denom,
      dest_asset_chain_id: evm.chain.info.chainId,
      amount_in: '3000000',
    };
    const routed = await postJson(url, '/v2/fungible/route', request);
    expect(routed.json.required_op_hook).toBe(true);
    const built = await postJson(url, '/v2/fungible/msgs', {
      ...request,
      amount_out: routed.json.amount_out,
      address_list: [wallet.address, wallet.address],
      operations: routed.json.operations,
      slippage_tolerance_percent: '1',
      signed_op_hook: signed,
    });
    expect(built.status, JSON.stringify(built.json)).toBe(200);
    const hash = await signAndBroadcastEip191(
      l1,
      wallet,
      built.json.txs[0].cosmos_tx.msgs.map(decode),
      400_000,
    );
    const done = await trackToEnd(url, l1.chain.info.chainId, hash);
    expect(done.state, JSON.stringify(done)).toBe('STATE_COMPLETED_SUCCESS');
    expect(await erc20Balance(evm, wrapper.contract, wallet.hexAddress)).toBe(BigInt(routed.json.amount_out));
    expect(await bankBalance(evm, wallet.address, l2)).toBe(0n);
  }, 240_000);

  it('refuses /op-hook for a recipient other than the connected wallet, naming both (and /msgs says why too)', async () => {
    const { url } = routers.funded;
    const wallet = freshWallet('sender');
    const other = evm.accounts[1]!.address;
    const refused = await postJson(url, '/op-hook', opHookRequest(wallet.address, other));
    expect([refused.status, refused.json.code], JSON.stringify(refused.json)).toEqual([400, 3]);
    expect(refused.json.message).toBe(
      `dest_address ${other} is not the account of source_address ${wallet.address}: the hook runs on ${evm.chain.info.chainId} as the recipient, so only the recipient's key can sign it, and InterwovenKit signs it as the connected wallet (source_address): send to your own address`,
    );
    // The same account as 0x hex is the same account.
    const hex = await postJson(
      url,
      '/op-hook',
      opHookRequest(evm.accounts[1]!.address, evm.accounts[1]!.hexAddress),
    );
    expect(hex.status, JSON.stringify(hex.json)).toBe(200);

    // /msgs: a hook signed by another account than the recipient, for the same reason.
    const request = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: l1.chain.info.chainId,
      dest_asset_denom: wrapper.denom,
      dest_asset_chain_id: evm.chain.info.chainId,
      amount_in: '1000',
    };
    const routed = await postJson(url, '/v2/fungible/route', request);
    const account = (await accountInfo(evm.urls.rest, other))!;
    const misSigned = await postJson(url, '/v2/fungible/msgs', {
      ...request,
      amount_out: routed.json.amount_out,
      address_list: [wallet.address, wallet.address],
      operations: routed.json.operations,
      signed_op_hook: await signHook(evm.accounts[1]!, hex.json, account),
    });
    expect([misSigned.status, misSigned.json.message]).toEqual([
      400,
      `signed_op_hook.signer "${other}" is not the deposit's recipient ${wallet.address}: the hook runs on ${evm.chain.info.chainId} as the recipient, so only the recipient's key can sign it, and InterwovenKit signs it as the connected wallet (source_address): send to your own address`,
    ]);
  });

  it('without a funder, refuses a signer with no account at once, naming the setting', async () => {
    const wallet = freshWallet('no-funder');
    const refused = await postJson(
      routers.plain.url,
      '/op-hook',
      opHookRequest(wallet.address, wallet.address),
    );
    expect([refused.status, refused.json.code], JSON.stringify(refused.json)).toEqual([400, 3]);
    expect(refused.json.message).toBe(
      `the account ${wallet.address} does not exist on ${evm.chain.info.chainId}, and this router creates none (--op-hook-funder-key / ROUTER_OP_HOOK_FUNDER_KEY is not set): the hook is signed with the account number and sequence it has there, so it must exist first; any transfer to it on ${evm.chain.info.chainId} creates it`,
    );
    // A signer whose account exists gets its hook from the same router.
    const known = evm.accounts[2]!;
    const answered = await postJson(
      routers.plain.url,
      '/op-hook',
      opHookRequest(known.address, known.address),
    );
    expect(answered.status, JSON.stringify(answered.json)).toBe(200);
  });

  it('creates no more accounts a minute than its cap: a 429 with Retry-After beyond it', async () => {
    const { url } = routers.capped;
    const [first, second] = [freshWallet('capped-1'), freshWallet('capped-2')];
    const created = await postJson(url, '/op-hook', opHookRequest(first.address, first.address));
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const limited = await postJson(url, '/op-hook', opHookRequest(second.address, second.address));
    expect([limited.status, limited.json.code], JSON.stringify(limited.json)).toEqual([429, 8]);
    expect(limited.json.message).toMatch(
      new RegExp(
        `^the router creates at most 1 account a minute for op-hook signers, and ${second.address} has none on ${evm.chain.info.chainId}: retry in \\d+ s$`,
      ),
    );
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The first one's creation is pending, not refused: asking again for it sends nothing and answers.
    const again = await postJson(url, '/op-hook', opHookRequest(first.address, first.address));
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    await waitForAccountCreation(evm.urls.rest, first.address);
    expect(await accountInfo(evm.urls.rest, second.address)).toBeUndefined();
  });

  it('answers 503 naming the chain when its funder cannot pay (no account there), and creates nothing', async () => {
    const wallet = freshWallet('unpaid');
    const funder = freshWallet('unfunded-funder').address;
    const refused = await postJson(
      routers.unfunded.url,
      '/op-hook',
      opHookRequest(wallet.address, wallet.address),
    );
    expect([refused.status, refused.json.code], JSON.stringify(refused.json)).toEqual([503, 14]);
    expect(refused.json.message).toMatch(
      new RegExp(
        `^the router's funder ${funder} has no account on ${evm.chain.info.chainId} to pay from \\(.*not found\\): fund it$`,
      ),
    );
    expect(await accountInfo(evm.urls.rest, wallet.address)).toBeUndefined();
  });
});
