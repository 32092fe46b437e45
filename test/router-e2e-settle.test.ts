import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shutdown } from 'weft/common/shutdown.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { ibcDenomOf, parseIbcPath } from 'weft/router/graph/denoms.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { withdrawalClaim, withdrawalProof } from 'weft-devnet/test-support/withdrawal.js';
import { latestTimeNs } from './ibc-support.js';
import { post, routeAndBuild, routerOnDevnet, status, trackToEnd } from './router-api-support.js';
import { control, trackingDevnet, until } from './router-tracking-support.js';
import { bankBalance, decode, signAndBroadcast } from './router-wallet-support.js';

/**
 * `weft router` with its own msgs, signed as a wallet signs them, on the paths that end later or badly:
 * an OPinit withdrawal (`is_op_withdraw`) that completes once its claim lands on the L1 after the
 * finalization period; a source tx that fails in its block; an IBC transfer that times out while the
 * relayer is paused. The failures end in `STATE_COMPLETED_ERROR` with `transfer_asset_release` on the
 * chain where the asset is (the tracker's state machine is tested case by case in
 * router-tracking.test.ts).
 */

let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let shutdown: Shutdown;
let url: string;

beforeAll(async () => {
  network = await trackingDevnet('router-e2e-failures');
  devnet = network.devnet;
  l1 = devnet.l1!;
  ({ url, shutdown } = await routerOnDevnet(devnet));
}, 120_000);

afterAll(async () => {
  await control(devnet, 'weft_resumeRelayer', ['ibc']).catch(() => undefined);
  await shutdown?.kill();
  await network?.close();
}, 60_000);

describe('weft router: an OPinit withdrawal, claimed after the finalization period', () => {
  it('deposits, withdraws with is_op_withdraw, claims on the L1: STATE_COMPLETED_SUCCESS', async () => {
    const move = devnet.rollups.find((r) => r.vm === 'move')!;
    const opinit = devnet.manifest().services.opinit as {
      bridges: Array<{ chain_id: string; bridge_id: string; executor_uri: string; l2_denom: string }>;
    };
    const bridge = opinit.bridges.find((b) => b.chain_id === move.chain.info.chainId)!;
    const holder = move.accounts[1]!;
    const owner = l1.accounts[1]!;
    // First the asset onto the rollup, through the router's deposit.
    const deposit = await routeAndBuild(
      url,
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        dest_asset_denom: bridge.l2_denom,
        dest_asset_chain_id: move.chain.info.chainId,
        amount_in: '900000',
      },
      [owner.address, holder.address],
    );
    const depositHash = await signAndBroadcast(l1, owner, deposit.tx.cosmos_tx.msgs.map(decode));
    expect((await trackToEnd(url, l1.chain.info.chainId, depositHash)).state).toBe('STATE_COMPLETED_SUCCESS');

    const request = {
      source_asset_denom: bridge.l2_denom,
      source_asset_chain_id: move.chain.info.chainId,
      dest_asset_denom: 'uinit',
      dest_asset_chain_id: l1.chain.info.chainId,
      amount_in: '400000',
    };
    const { routed, tx } = await routeAndBuild(url, { ...request, is_op_withdraw: true } as never, [
      holder.address,
      owner.address,
    ]);
    expect(routed.operations.map((o: any) => Object.keys(o)[0])).toEqual(['op_init_transfer']);
    const withdrawHash = await signAndBroadcast(move, holder, tx.cosmos_tx.msgs.map(decode));
    const tracked = await post(url, '/v2/tx/track', {
      tx_hash: withdrawHash,
      chain_id: move.chain.info.chainId,
    });
    expect(tracked.status).toBe(200);
    const pending = await until('the withdrawal pending', async () => {
      const answer = await status(url, move.chain.info.chainId, withdrawHash);
      return answer.state === 'STATE_PENDING' && answer.transfer_sequence.length === 1 && answer;
    });
    const sequence = pending.transfer_sequence[0].op_init_transfer.sequence;

    // The claim, as a wallet makes it from the executor's proof once the output is final.
    const claimHash = await until(
      'the output to finalize and the claim to land',
      async () => {
        const proof = await withdrawalProof(bridge.executor_uri, sequence);
        if (!proof.output_index) return undefined;
        const claim = {
          typeUrl: '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
          value: withdrawalClaim(proof, owner.address),
        };
        // Refused until the output's finalization period has passed; asked again then.
        return signAndBroadcast(l1, owner, [claim], 'direct', true).then(async (hash) => {
          const landed = await (await fetch(`${l1.urls.rest}/cosmos/tx/v1beta1/txs/${hash}`)).json();
          return (landed as any).tx_response?.code === 0 && hash;
        });
      },
      30_000,
    );
    expect(claimHash).toBeTruthy();
    const done = await trackToEnd(url, move.chain.info.chainId, withdrawHash);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfer_sequence[0].op_init_transfer).toMatchObject({
      from_chain_id: move.chain.info.chainId,
      to_chain_id: l1.chain.info.chainId,
    });
    expect(done.transfer_asset_release).toMatchObject({ chain_id: l1.chain.info.chainId, denom: 'uinit' });
    // The claim paid the owner the route's amount out.
    const landed = (await (await fetch(`${l1.urls.rest}/cosmos/tx/v1beta1/txs/${claimHash}`)).json()) as any;
    const finalized = landed.tx_response.events.find((e: any) => e.type === 'finalize_token_withdrawal');
    const attr = (key: string) => finalized.attributes.find((a: any) => a.key === key)?.value;
    expect([attr('to'), attr('amount')]).toEqual([owner.address, routed.amount_out]);
  }, 120_000);
});

describe('weft router failure paths with its own msgs', () => {
  it('a deposit that fails in its block: STATE_COMPLETED_ERROR, the asset still on the L1', async () => {
    const wasm = devnet.rollups.find((r) => r.vm === 'wasm')!;
    const sender = l1.accounts[3]!;
    const held = await bankBalance(l1, sender.address, 'uinit');
    // More than the sender holds: the ante (CheckTx) passes, the deposit's escrow fails in the block.
    const amount = String(held * 2n);
    const { tx } = await routeAndBuild(
      url,
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        dest_asset_denom: l2Denom('3', 'uinit'),
        dest_asset_chain_id: wasm.chain.info.chainId,
        amount_in: amount,
      },
      [sender.address, wasm.accounts[0]!.address],
    );
    const hash = await signAndBroadcast(l1, sender, tx.cosmos_tx.msgs.map(decode), 'amino', true);
    const done = await trackToEnd(url, l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.error.type).toBe('STATUS_ERROR_TRANSACTION_EXECUTION');
    expect(done.transfer_asset_release).toMatchObject({
      chain_id: l1.chain.info.chainId,
      denom: 'uinit',
      amount,
      released: true,
    });
    // Only the fee left the sender (cosmjs' fee of the wallet support: 400,000 gas at the minimum price).
    const fee = BigInt(Math.ceil(400_000 * l1.chain.info.minGasPrice));
    expect(await bankBalance(l1, sender.address, 'uinit')).toBe(held - fee);
  }, 60_000);

  it('an IBC transfer timed out while the relayer is paused: refunded on the L1', async () => {
    const cosmos = devnet.external.cosmos!;
    const sender = l1.accounts[2]!;
    const { routed, tx } = await routeAndBuild(
      url,
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        // The L1 is channel-0 of the Cosmos chain.
        dest_asset_denom: ibcDenomOf(parseIbcPath('transfer/channel-0/uinit')),
        dest_asset_chain_id: cosmos.chain.info.chainId,
        amount_in: '4321',
      },
      [sender.address, cosmos.accounts[0]!.address],
      { timeout_seconds: 5 },
    );
    expect(routed.operations.map((o: any) => Object.keys(o)[0])).toEqual(['transfer']);
    expect(await control(devnet, 'weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    const sent = tx.cosmos_tx.msgs.map(decode);
    const deadline = BigInt(sent[0].value.timeoutTimestamp);
    const hash = await signAndBroadcast(l1, sender, sent);
    const escrowed = await bankBalance(l1, sender.address, 'uinit');
    await until(
      'the timeout passes on the Cosmos chain',
      async () => latestTimeNs(cosmos.chain) > deadline,
      30_000,
    );
    expect(await control(devnet, 'weft_resumeRelayer', ['ibc'])).toMatchObject({ paused: false });
    const done = await trackToEnd(url, l1.chain.info.chainId, hash);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.transfer_asset_release).toMatchObject({
      chain_id: l1.chain.info.chainId,
      denom: 'uinit',
      released: true,
    });
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop.packet_txs.error.type).toBe('PACKET_ERROR_TIMEOUT');
    expect(hop.packet_txs.timeout_tx.chain_id).toBe(l1.chain.info.chainId);
    // The refund is back.
    expect(await bankBalance(l1, sender.address, 'uinit')).toBe(escrowed + 4321n);
  }, 90_000);
});
