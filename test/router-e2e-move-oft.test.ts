import { createPublicClient, type Hex, http, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shutdown } from 'weft/common/shutdown.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { post, routeAndBuild, routerOnDevnet, trackToEnd } from './router-api-support.js';
import { trackingDevnet } from './router-tracking-support.js';
import { bankBalance, decode, evmChain, signAndBroadcast } from './router-wallet-support.js';

/**
 * Acceptance of OFT sends from the Move L1 through `weft router` on the full devnet, as a wallet walks
 * them: route (the fee from the Move OFT's `oft::quote_send` view) → msgs (one `MsgExecuteJSON` of
 * `oft::send`) → decode with the Initia amino types → sign with cosmjs → track → `STATE_COMPLETED_SUCCESS`
 * → the recipient's ERC20 balance grew by `amount_out`, the sender paid the fee the route announced.
 */

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let shutdown: Shutdown;
let url: string;

beforeAll(async () => {
  network = await trackingDevnet('router-e2e-move-oft');
  devnet = network.devnet;
  l1 = devnet.l1!;
  ({ url, shutdown } = await routerOnDevnet(devnet));
}, 120_000);

afterAll(async () => {
  await shutdown?.kill();
  await network?.close();
}, 60_000);

const members = () =>
  (
    devnet.manifest().services.omnichain as {
      members: Array<{ chain_id: string; oft: Hex; denom: string; kind: string }>;
    }
  ).members;

describe('weft router: OFT from the Move L1 end to end', () => {
  for (const target of ['the EVM rollup', 'the external EVM chain'] as const) {
    it(`delivers and tracks an OFT send from the Move L1 to ${target}`, async () => {
      const dest =
        target === 'the EVM rollup' ? devnet.rollups.find((c) => c.vm === 'evm')! : devnet.external.evm!;
      const destId = dest.chain.info.chainId;
      const source = members().find((m) => m.kind === 'move')!;
      const peer = members().find((m) => m.chain_id === destId)!;
      const index = target === 'the EVM rollup' ? 0 : 1;
      const sender = l1.accounts[index]!;
      const recipient = dest.accounts[2]!.hexAddress as Hex;
      const request = {
        source_asset_denom: source.denom,
        source_asset_chain_id: l1.chain.info.chainId,
        dest_asset_denom: peer.denom,
        dest_asset_chain_id: destId,
        amount_in: '3250000',
      };
      const { routed, tx } = await routeAndBuild(url, request, [sender.address, recipient]);
      expect(routed.amount_out).toBe(String(3_250_000n * 10n ** 12n));
      expect(Object.keys(routed.operations[0])).toContain('layer_zero_transfer');
      expect(routed.estimated_fees).toEqual([
        expect.objectContaining({
          bridge_id: 'LAYER_ZERO',
          amount: '1400',
          chain_id: l1.chain.info.chainId,
          fee_behavior: 'FEE_BEHAVIOR_ADDITIONAL',
        }),
      ]);
      expect(tx.cosmos_tx).toMatchObject({ chain_id: l1.chain.info.chainId, signer_address: sender.address });
      const msgs = tx.cosmos_tx.msgs.map(decode);
      expect(msgs.map((m: { typeUrl: string }) => m.typeUrl)).toEqual(['/initia.move.v1.MsgExecuteJSON']);

      const reader = createPublicClient({
        chain: evmChain(dest.chain.info.evmChainId!, dest.urls.jsonRpc!),
        transport: http(),
      });
      const balance = () =>
        reader.readContract({ address: peer.oft, abi: ERC20, functionName: 'balanceOf', args: [recipient] });
      const before = await balance();
      const feeDenom = l1.chain.info.denom;
      const [oftBefore, feeBefore] = [
        await bankBalance(l1, sender.address, source.denom),
        await bankBalance(l1, sender.address, feeDenom),
      ];
      const hash = await signAndBroadcast(l1, sender, msgs);
      const done = await trackToEnd(url, l1.chain.info.chainId, hash);
      expect(done.state, JSON.stringify(done)).toBe('STATE_COMPLETED_SUCCESS');
      expect(Object.keys(done.transfer_sequence[0])).toEqual(['layer_zero_transfer']);
      expect(done.transfer_sequence[0].layer_zero_transfer).toMatchObject({
        from_chain_id: l1.chain.info.chainId,
        to_chain_id: destId,
        state: 'LAYER_ZERO_TRANSFER_RECEIVED',
      });
      expect(await balance()).toBe(before + BigInt(routed.amount_out));
      // The sender paid the amount, the tx fee (signAndBroadcast's 400,000 gas) and the announced OFT fee.
      const txFee = BigInt(Math.ceil(400_000 * l1.chain.info.minGasPrice));
      expect(await bankBalance(l1, sender.address, source.denom)).toBe(oftBefore - 3_250_000n);
      expect(await bankBalance(l1, sender.address, feeDenom)).toBe(feeBefore - txFee - 1_400n);
    }, 90_000);
  }

  it("refuses /msgs for a Move L1 send whose recipient does not fit the destination's address format", async () => {
    const evm = devnet.rollups.find((c) => c.vm === 'evm')!;
    const eth = devnet.external.evm!;
    const source = members().find((m) => m.kind === 'move')!;
    const peer = members().find((m) => m.chain_id === eth.chain.info.chainId)!;
    const request = {
      source_asset_denom: source.denom,
      source_asset_chain_id: l1.chain.info.chainId,
      dest_asset_denom: peer.denom,
      dest_asset_chain_id: eth.chain.info.chainId,
      amount_in: '1000000',
    };
    const routed = await post(url, '/v2/fungible/route', request);
    expect(routed.status).toBe(200);
    for (const addresses of [
      [l1.accounts[0]!.address, evm.accounts[0]!.address],
      [eth.accounts[0]!.hexAddress, eth.accounts[0]!.hexAddress],
    ]) {
      const built = await post(url, '/v2/fungible/msgs', {
        ...request,
        amount_out: routed.json.amount_out,
        address_list: addresses,
        operations: routed.json.operations,
      });
      expect(built.status, JSON.stringify(built.json)).toBe(400);
      expect(built.json.message).toMatch(/invalid address/);
    }
  });
});
