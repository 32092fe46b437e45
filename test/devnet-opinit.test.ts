import { encodeSecp256k1Pubkey } from '@cosmjs/amino';
import {
  DirectSecp256k1HdWallet,
  encodePubkey,
  makeAuthInfoBytes,
  makeSignDoc,
  Registry,
} from '@cosmjs/proto-signing';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { RESTClient } from '@initia/initia.js';
import { MsgInitiateTokenWithdrawal } from '@initia/opinit.proto/opinit/opchild/v1/tx.js';
import {
  MsgFinalizeTokenWithdrawal,
  MsgInitiateTokenDeposit,
} from '@initia/opinit.proto/opinit/ophost/v1/tx.js';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2Denom, withdrawalHash } from 'weft/protocol/opinit.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import type { ExecTxResultJson } from 'weft-devnet/node.js';
import {
  createOpinitTestbed,
  type OpinitTestbed,
  type OpinitTestbedChain,
} from 'weft-devnet/test-support/opinit-testbed.js';
import { withdrawalClaim, withdrawalProof } from 'weft-devnet/test-support/withdrawal.js';

/**
 * Acceptance for OPinit: deposits (plain, with a hook, with a failing hook) and a withdrawal, signed by
 * cosmjs with the Initia proto types and broadcast through CometBFT RPC; balances, supply, events and
 * the REST queries initia.js makes.
 */

const FINALIZATION_MS = 5_000;
const registry = new Registry([
  ['/cosmos.bank.v1beta1.MsgSend', MsgSend],
  ['/opinit.ophost.v1.MsgInitiateTokenDeposit', MsgInitiateTokenDeposit],
  ['/opinit.ophost.v1.MsgFinalizeTokenWithdrawal', MsgFinalizeTokenWithdrawal],
  ['/opinit.opchild.v1.MsgInitiateTokenWithdrawal', MsgInitiateTokenWithdrawal],
]);

let bed: OpinitTestbed;
let l2: string;

beforeAll(async () => {
  bed = await createOpinitTestbed({ childVm: 'wasm', finalizationPeriodMs: FINALIZATION_MS });
  l2 = l2Denom(bed.bridgeId, bed.host.chain.info.denom);
  await bed.step();
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

/** Signs msgs as a wallet does: cosmjs wallet, account number and sequence read from REST. */
async function signWithCosmjs(
  chain: OpinitTestbedChain,
  account: DevAccount,
  msgs: Array<{ typeUrl: string; value: unknown }>,
  options: { gas?: number; fee?: string; sequenceOffset?: number } = {},
): Promise<Uint8Array> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: 'init' });
  const [signer] = await wallet.getAccounts();
  const info = (await (
    await fetch(`${chain.servers.urls.rest}/cosmos/auth/v1beta1/account_info/${signer!.address}`)
  ).json()) as { info: { account_number: string; sequence: string } };
  const gas = options.gas ?? 400_000;
  const bodyBytes = registry.encodeTxBody({ messages: msgs, memo: '' });
  const fee = options.fee ?? String(Math.ceil(gas * chain.chain.info.minGasPrice));
  const authInfoBytes = makeAuthInfoBytes(
    [
      {
        pubkey: encodePubkey(encodeSecp256k1Pubkey(signer!.pubkey)),
        sequence: Number(info.info.sequence) + (options.sequenceOffset ?? 0),
      },
    ],
    fee === '0' ? [] : [{ denom: chain.chain.info.denom, amount: fee }],
    gas,
    undefined,
    undefined,
  );
  const signDoc = makeSignDoc(
    bodyBytes,
    authInfoBytes,
    chain.chain.info.chainId,
    Number(info.info.account_number),
  );
  const { signature } = await wallet.signDirect(signer!.address, signDoc);
  return TxRaw.encode({
    bodyBytes,
    authInfoBytes,
    signatures: [Buffer.from(signature.signature, 'base64')],
  }).finish();
}

async function broadcast(chain: OpinitTestbedChain, raw: Uint8Array): Promise<string> {
  const client = await Comet38Client.connect(chain.servers.urls.rpc);
  const result = await client.broadcastTxSync({ tx: raw });
  client.disconnect();
  expect(result.code, result.log).toBe(0);
  return Buffer.from(result.hash).toString('hex').toUpperCase();
}

function resultOf(chain: OpinitTestbedChain, hash: string): ExecTxResultJson {
  const found = chain.chain.findTx(hash);
  expect(found, `tx ${hash} committed`).toBeDefined();
  return chain.chain.getBlock(found!.height)!.txs[found!.index]!.result;
}

function eventOf(result: ExecTxResultJson, type: string): Record<string, string> {
  const e = result.events.find((x) => x.type === type);
  expect(e, `${type} event`).toBeDefined();
  return Object.fromEntries((e!.attributes ?? []).map((a) => [a.key, a.value]));
}

const balance = async (chain: OpinitTestbedChain, address: string, denom: string) =>
  BigInt((await chain.chain.balances(address)).find((c) => c.denom === denom)?.amount ?? '0');

async function supply(chain: OpinitTestbedChain, denom: string): Promise<bigint> {
  let total = 0n;
  for (const account of chain.chain.accounts()) total += await balance(chain, account.address, denom);
  return total;
}

async function steps(n: number) {
  for (let i = 0; i < n; i += 1) await bed.step();
}

const deposit = (from: DevAccount, to: string, amount: string, data: Uint8Array = new Uint8Array()) =>
  signWithCosmjs(bed.host, from, [
    {
      typeUrl: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
      value: {
        sender: from.address,
        bridgeId: bed.bridgeId,
        to,
        amount: { denom: bed.host.chain.info.denom, amount },
        data,
      },
    },
  ]);

/** A rollup MsgSend of the L2 denom, signed by `from` as the hook the deposit carries. */
const hookSend = (from: DevAccount, to: string, amount: string, sequenceOffset = 0) =>
  signWithCosmjs(
    bed.child,
    from,
    [
      {
        typeUrl: '/cosmos.bank.v1beta1.MsgSend',
        value: { fromAddress: from.address, toAddress: to, amount: [{ denom: l2, amount }] },
      },
    ],
    { gas: 1, fee: '0', sequenceOffset },
  );

describe('OPinit deposits', () => {
  it('a deposit signed by cosmjs is escrowed on the host and minted on the rollup', async () => {
    const [alice] = bed.host.accounts;
    const [bob] = bed.child.accounts;
    const hostSupply = await supply(bed.host, bed.host.chain.info.denom);
    const hash = await broadcast(bed.host, await deposit(alice!, bob!.address, '1000000'));
    await steps(3);
    const initiated = eventOf(resultOf(bed.host, hash), 'initiate_token_deposit');
    expect(initiated).toMatchObject({
      bridge_id: '1',
      l1_sequence: '1',
      from: alice!.address,
      to: bob!.address,
      l1_denom: bed.host.chain.info.denom,
      l2_denom: l2,
      amount: '1000000',
      data: '',
    });
    expect(await balance(bed.child, bob!.address, l2)).toBe(1_000_000n);
    expect(await supply(bed.host, bed.host.chain.info.denom)).toBe(hostSupply);

    // The rollup's event, found by tx_search and by REST txs?query=.
    const client = await Comet38Client.connect(bed.child.servers.urls.rpc);
    const search = await client.txSearch({ query: "finalize_token_deposit.l1_sequence='1'" });
    client.disconnect();
    expect(search.totalCount).toBe(1);
    const rest = (await (
      await fetch(
        `${bed.child.servers.urls.rest}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent("finalize_token_deposit.l1_sequence='1'")}`,
      )
    ).json()) as {
      tx_responses: Array<{
        events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
      }>;
    };
    const finalized = rest.tx_responses[0]!.events.find((e) => e.type === 'finalize_token_deposit')!;
    const attrs = Object.fromEntries(finalized.attributes.map((a) => [a.key, a.value]));
    expect(attrs).toMatchObject({
      l1_sequence: '1',
      sender: alice!.address,
      recipient: bob!.address,
      denom: l2,
      base_denom: bed.host.chain.info.denom,
      amount: '1000000',
      success: 'true',
    });
    expect(Number(attrs.finalize_height)).toBeGreaterThan(0);
    const hostSearch = await Comet38Client.connect(bed.host.servers.urls.rpc);
    expect((await hostSearch.txSearch({ query: "initiate_token_deposit.l1_sequence='1'" })).totalCount).toBe(
      1,
    );
    hostSearch.disconnect();
  });

  it('runs the signed tx a deposit carries as its hook', async () => {
    const [, alice] = bed.host.accounts;
    const [, carol, dave] = bed.child.accounts;
    const before = await balance(bed.child, dave!.address, l2);
    const hook = await hookSend(carol!, dave!.address, '300');
    const hash = await broadcast(bed.host, await deposit(alice!, carol!.address, '1000', hook));
    await steps(3);
    const sequence = eventOf(resultOf(bed.host, hash), 'initiate_token_deposit').l1_sequence!;
    const client = await Comet38Client.connect(bed.child.servers.urls.rpc);
    const found = await client.txSearch({ query: `finalize_token_deposit.l1_sequence='${sequence}'` });
    client.disconnect();
    expect(found.totalCount).toBe(1);
    const attrs = Object.fromEntries(
      found.txs[0]!.result.events.find((e) => e.type === 'finalize_token_deposit')!.attributes.map((a) => [
        a.key,
        a.value,
      ]),
    );
    expect(attrs.success).toBe('true');
    expect(attrs.reason).toBeUndefined();
    expect(await balance(bed.child, carol!.address, l2)).toBe(700n);
    expect(await balance(bed.child, dave!.address, l2)).toBe(before + 300n);
  });

  it('a failing hook leaves the deposit credited and says why', async () => {
    const [, alice] = bed.host.accounts;
    const [, carol, dave] = bed.child.accounts;
    const carolBefore = await balance(bed.child, carol!.address, l2);
    const daveBefore = await balance(bed.child, dave!.address, l2);
    // Spends more than the deposit brings: the msg fails.
    const overspend = await hookSend(carol!, dave!.address, '1000000000');
    // Signed for a sequence the account is not at: the ante fails.
    const staleSequence = await hookSend(carol!, dave!.address, '1', 7);
    const first = await broadcast(bed.host, await deposit(alice!, carol!.address, '50', overspend));
    await steps(1);
    const second = await broadcast(bed.host, await deposit(alice!, carol!.address, '50', staleSequence));
    await steps(3);
    const results: Record<string, string>[] = [];
    for (const hash of [first, second]) {
      const sequence = eventOf(resultOf(bed.host, hash), 'initiate_token_deposit').l1_sequence!;
      const client = await Comet38Client.connect(bed.child.servers.urls.rpc);
      const found = await client.txSearch({ query: `finalize_token_deposit.l1_sequence='${sequence}'` });
      client.disconnect();
      expect(found.totalCount).toBe(1);
      results.push(
        Object.fromEntries(
          found.txs[0]!.result.events.find((e) => e.type === 'finalize_token_deposit')!.attributes.map(
            (a) => [a.key, a.value],
          ),
        ),
      );
    }
    expect(results[0]!.success).toBe('false');
    expect(results[0]!.reason).toMatch(
      /^hook failed; Failed to execute Msg: spendable balance \d+l2\/[0-9a-f]+ is smaller than/,
    );
    expect(results[1]!.success).toBe('false');
    expect(results[1]!.reason).toMatch(/^hook failed; Failed to run AnteHandler: account sequence mismatch/);
    expect(await balance(bed.child, carol!.address, l2)).toBe(carolBefore + 100n);
    expect(await balance(bed.child, dave!.address, l2)).toBe(daveBefore);
  });
});

describe('OPinit withdrawals', () => {
  it('is refused before the finalization period, finalized after it, and refused twice', async () => {
    const [alice] = bed.host.accounts;
    const [bob] = bed.child.accounts;
    const hostDenom = bed.host.chain.info.denom;
    const withdrawHash = await broadcast(
      bed.child,
      await signWithCosmjs(bed.child, bob!, [
        {
          typeUrl: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
          value: { sender: bob!.address, to: alice!.address, amount: { denom: l2, amount: '400000' } },
        },
      ]),
    );
    await steps(1);
    const initiated = eventOf(resultOf(bed.child, withdrawHash), 'initiate_token_withdrawal');
    expect(initiated).toMatchObject({
      from: bob!.address,
      to: alice!.address,
      denom: l2,
      base_denom: hostDenom,
      amount: '400000',
    });
    expect(await balance(bed.child, bob!.address, l2)).toBe(600_000n);
    await steps(2); // the output covering the withdrawal is proposed and committed

    const proof = await withdrawalProof(bed.executorUrl, initiated.l2_sequence!);
    expect(proof.output_index).toBeGreaterThan(0);
    expect(proof.tx_hash).toBe(withdrawHash);
    expect(proof.amount).toEqual({ denom: hostDenom, amount: '400000' });
    // A wallet page (InterwovenKit's withdrawal status) reads the executor from the browser: CORS.
    const answer = await fetch(`${bed.executorUrl}/withdrawals/${alice!.address}?limit=10`, {
      headers: { origin: 'http://127.0.0.1:8070' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const listed = (await answer.json()) as {
      withdrawals: Array<{ sequence: number }>;
    };
    expect(listed.withdrawals.map((w) => w.sequence)).toContain(proof.sequence);

    const claim = () =>
      signWithCosmjs(bed.host, alice!, [
        {
          typeUrl: '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
          value: withdrawalClaim(proof, alice!.address),
        },
      ]);

    const early = await broadcast(bed.host, await claim());
    await steps(1);
    const refused = resultOf(bed.host, early);
    expect(refused.code).toBe(8);
    expect(refused.codespace).toBe('ophost');
    expect(refused.log).toContain('output has not finalized');

    await steps(FINALIZATION_MS / 1000 + 1);
    const aliceBefore = await balance(bed.host, alice!.address, hostDenom);
    const hostSupply = await supply(bed.host, hostDenom);
    const ok = await broadcast(bed.host, await claim());
    await steps(1);
    const finalized = resultOf(bed.host, ok);
    expect(finalized.code, finalized.log).toBe(0);
    expect(eventOf(finalized, 'finalize_token_withdrawal')).toMatchObject({
      bridge_id: '1',
      output_index: String(proof.output_index),
      l2_sequence: String(proof.sequence),
      from: bob!.address,
      to: alice!.address,
      l1_denom: hostDenom,
      l2_denom: l2,
      amount: '400000',
    });
    const fee = BigInt(Math.ceil(400_000 * bed.host.chain.info.minGasPrice));
    expect(await balance(bed.host, alice!.address, hostDenom)).toBe(aliceBefore + 400_000n - fee);
    expect(await supply(bed.host, hostDenom)).toBe(hostSupply);

    const twice = await broadcast(bed.host, await claim());
    await steps(1);
    const again = resultOf(bed.host, twice);
    expect(again.code).toBe(11);
    expect(again.log).toContain('withdrawal already finalized');

    // The escrow holds exactly what the rollup has in circulation.
    const bridge = await bed.host.chain.balances(
      (await new RESTClient(bed.host.servers.urls.rest).ophost.bridgeInfo(1)).bridge_addr,
    );
    const escrow = BigInt(bridge.find((c) => c.denom === hostDenom)?.amount ?? '0');
    expect(escrow).toBe(await supply(bed.child, l2));

    const rest = new RESTClient(bed.host.servers.urls.rest);
    const hash = withdrawalHash({
      bridgeId: 1n,
      sequence: BigInt(proof.sequence),
      from: proof.from,
      to: proof.to,
      denom: hostDenom,
      amount: 400_000n,
    });
    expect(await rest.ophost.withdrawalClaimed(1, Buffer.from(hash).toString('hex'))).toBe(true);
  });
});

describe('OPinit queries read by initia.js', () => {
  it('RESTClient reads the host and child modules', async () => {
    const host = new RESTClient(bed.host.servers.urls.rest);
    const child = new RESTClient(bed.child.servers.urls.rest);
    const [bridges] = await host.ophost.bridgeInfos();
    expect(bridges.map((b) => b.bridge_id)).toEqual([1]);
    const bridge = await host.ophost.bridgeInfo(1);
    expect(bridge.bridge_config.proposer).toBe(bed.proposer.address);
    const [pairs] = await host.ophost.tokenPairs(1);
    expect(pairs).toEqual([{ l1_denom: bed.host.chain.info.denom, l2_denom: l2 }]);
    expect(await host.ophost.tokenPairByL2Denom(1, l2)).toEqual({
      l1_denom: bed.host.chain.info.denom,
      l2_denom: l2,
    });
    const [outputs] = await host.ophost.outputInfos(1);
    expect(outputs.length).toBeGreaterThan(0);
    const first = await host.ophost.outputInfo(1, 1);
    expect(first.output_proposal.l2_block_number).toBeGreaterThan(0);
    const last = await host.ophost.lastFinalizedOutput(1);
    expect(last.output_index).toBeGreaterThan(0);
    expect(await host.ophost.nextL1Sequence(1)).toBe(5);

    const info = await child.opchild.bridgeInfo();
    expect(info.bridge_id).toBe(1);
    expect(info.bridge_addr).toBe(bridge.bridge_addr);
    expect(await child.opchild.nextL1Sequence()).toBe(5);
    expect(await child.opchild.nextL2Sequence()).toBe(2);
    expect(await child.opchild.baseDenom(l2)).toBe(bed.host.chain.info.denom);

    // A chain without the module answers as for a route no service registered.
    expect((await fetch(`${bed.child.servers.urls.rest}/opinit/ophost/v1/bridges`)).status).toBe(501);
    expect((await fetch(`${bed.host.servers.urls.rest}/opinit/opchild/v1/bridge_info`)).status).toBe(501);
    expect((await fetch(`${bed.host.servers.urls.rest}/opinit/ophost/v1/bridges/9`)).status).toBe(404);
  });
});

describe('OPinit relayers under control', () => {
  it('a paused executor holds deposits, a paused submitter holds outputs, until resumed', async () => {
    const [alice] = bed.host.accounts;
    const [bob] = bed.child.accounts;
    const child = new RESTClient(bed.child.servers.urls.rest);
    const host = new RESTClient(bed.host.servers.urls.rest);
    bed.executor.pause();
    bed.submitter.pause();
    await steps(1); // commits what was sent before the pause
    const nextL1 = await child.opchild.nextL1Sequence();
    const [outputsBefore] = await host.ophost.outputInfos(1);
    await broadcast(bed.host, await deposit(alice!, bob!.address, '10'));
    await steps(3);
    expect(await child.opchild.nextL1Sequence()).toBe(nextL1);
    expect(bed.executor.pendingDeposits).toBe(1);
    expect((await host.ophost.outputInfos(1))[0]).toHaveLength(outputsBefore.length);

    bed.executor.resume();
    bed.submitter.resume();
    await steps(2);
    expect(await child.opchild.nextL1Sequence()).toBe(nextL1 + 1);
    expect((await host.ophost.outputInfos(1))[0].length).toBeGreaterThan(outputsBefore.length);
  });

  it('a delayed executor relays once the delay has passed', async () => {
    const [alice] = bed.host.accounts;
    const [bob] = bed.child.accounts;
    const child = new RESTClient(bed.child.servers.urls.rest);
    bed.executor.setDelay(60_000);
    const nextL1 = await child.opchild.nextL1Sequence();
    await broadcast(bed.host, await deposit(alice!, bob!.address, '10'));
    await steps(3);
    expect(await child.opchild.nextL1Sequence()).toBe(nextL1);
    bed.executor.setDelay(0);
    await steps(2);
    expect(await child.opchild.nextL1Sequence()).toBe(nextL1 + 1);
  });
});
