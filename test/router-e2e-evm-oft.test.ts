import { createPublicClient, getAddress, type Hex, http, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shutdown } from 'weft/common/shutdown.js';
import type { Devnet, DevnetChain, ExternalEvmChain } from 'weft-devnet/devnet.js';
import { signAndBroadcastEip191 } from './eth-signer-support.js';
import { post, routeAndBuild, routerOnDevnet, trackToEnd } from './router-api-support.js';
import { trackingDevnet } from './router-tracking-support.js';
import { bankBalance, decode, evmChain, sendEvmTx } from './router-wallet-support.js';

/**
 * Acceptance of OFT sends from the EVM chains through `weft router` on the full devnet, as InterwovenKit
 * walks them. It looks the chain of an `evm_tx` up in `/v2/info/chains` by `chain_id` and signs it only
 * there where `chain_type` is "evm", with `Number(chain_id)` as the EVM chain id and `rpc` as the node it
 * adds to the wallet; Initia chains' txs it signs as Cosmos txs. So from the EVM rollup (an Initia chain,
 * `chain_type` "cosmos") the send is a `cosmos_tx` of `MsgCall`s, signed by an Ethereum key in
 * SIGN_MODE_EIP_191 and tracked by its Cosmos hash; from the external EVM chain it is an `evm_tx` sent by
 * viem to the listed `rpc`. Each is tracked to `STATE_COMPLETED_SUCCESS` and the recipient holds
 * `amount_out` more.
 */

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let evm: DevnetChain;
let eth: ExternalEvmChain;
let shutdown: Shutdown;
let url: string;

beforeAll(async () => {
  network = await trackingDevnet('router-e2e-evm-oft');
  devnet = network.devnet;
  l1 = devnet.l1!;
  evm = devnet.rollups.find((c) => c.vm === 'evm')!;
  eth = devnet.external.evm!;
  ({ url, shutdown } = await routerOnDevnet(devnet));
}, 120_000);

afterAll(async () => {
  await shutdown?.kill();
  await network?.close();
}, 60_000);

/** The OFT member on a chain: its OFT contract (or Move package) and its token's denom. */
const member = (chainId: string) =>
  (
    devnet.manifest().services.omnichain as {
      members: Array<{ chain_id: string; oft: Hex; denom: string }>;
    }
  ).members.find((m) => m.chain_id === chainId)!;

/** InterwovenKit's look-up of a tx's chain: the `/v2/info/chains` entry whose `chain_id` equals it. */
async function listedChain(chainId: string) {
  const listed = (await (await fetch(`${url}/v2/info/chains`)).json()) as { chains: any[] };
  const found = listed.chains.find((c) => c.chain_id === chainId);
  if (!found) throw new Error(`Chain not found: ${chainId}`);
  return found;
}

const oftBalance = (chain: DevnetChain | ExternalEvmChain, holder: Hex) =>
  createPublicClient({
    chain: evmChain(chain.chain.info.evmChainId!, chain.urls.jsonRpc!),
    transport: http(),
  }).readContract({
    address: member(chain.chain.info.chainId).oft,
    abi: ERC20,
    functionName: 'balanceOf',
    args: [holder],
  });

describe('weft router: OFT from the EVM chains end to end', () => {
  it('sends from the EVM rollup to the L1 as a cosmos_tx of MsgCalls on the rollup, signed in SIGN_MODE_EIP_191 and tracked by its Cosmos hash', async () => {
    const evmId = evm.chain.info.chainId;
    const l1Id = l1.chain.info.chainId;
    const sender = evm.accounts[1]!;
    const recipient = l1.accounts[1]!.address;
    const request = {
      source_asset_denom: member(evmId).denom,
      source_asset_chain_id: evmId,
      dest_asset_denom: member(l1Id).denom,
      dest_asset_chain_id: l1Id,
      amount_in: String(2n * 10n ** 18n + 7n),
    };
    // InterwovenKit names an Initia chain's account in bech32.
    const { routed, tx } = await routeAndBuild(url, request, [sender.address, recipient]);
    // 18 decimals → the Move token's 6; the dust stays with the sender.
    expect(routed.amount_out).toBe('2000000');
    const fee = routed.operations[0].layer_zero_transfer.messaging_fee_amount as string;
    expect(routed.estimated_fees).toEqual([
      expect.objectContaining({
        bridge_id: 'LAYER_ZERO',
        amount: fee,
        chain_id: evmId,
        fee_behavior: 'FEE_BEHAVIOR_ADDITIONAL',
        origin_asset: expect.objectContaining({ denom: evm.chain.info.denom }),
      }),
    ]);
    expect(tx.evm_tx).toBeUndefined();
    expect(tx.cosmos_tx).toMatchObject({ chain_id: evmId, signer_address: sender.address });
    expect((await listedChain(tx.cosmos_tx.chain_id)).chain_type).toBe('cosmos');
    const msgs = tx.cosmos_tx.msgs.map(decode);
    expect(msgs).toEqual([
      {
        typeUrl: '/minievm.evm.v1.MsgCall',
        value: expect.objectContaining({
          sender: sender.address,
          contractAddr: member(evmId).oft,
          value: fee,
        }),
      },
    ]);
    // msgs_direct answers the same tx.
    const direct = await post(url, '/v2/fungible/msgs_direct', {
      ...request,
      slippage_tolerance_percent: '1',
      chain_ids_to_addresses: { [evmId]: sender.address, [l1Id]: recipient },
    });
    expect(direct.status, JSON.stringify(direct.json)).toBe(200);
    expect(direct.json.txs).toEqual([tx]);

    const [received, oftBefore, gasBefore] = [
      await bankBalance(l1, recipient, member(l1Id).denom),
      await oftBalance(evm, sender.hexAddress as Hex),
      await bankBalance(evm, sender.address, evm.chain.info.denom),
    ];
    const gas = 1_000_000;
    const hash = await signAndBroadcastEip191(evm, sender, msgs, gas);
    const done = await trackToEnd(url, evmId, hash);
    expect(done.state, JSON.stringify(done)).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfer_sequence).toHaveLength(1);
    expect(done.transfer_sequence[0].layer_zero_transfer).toMatchObject({
      from_chain_id: evmId,
      to_chain_id: l1Id,
      state: 'LAYER_ZERO_TRANSFER_RECEIVED',
      txs: { send_tx: { chain_id: evmId, tx_hash: hash } },
    });
    expect(await bankBalance(l1, recipient, member(l1Id).denom)).toBe(received + 2_000_000n);
    // The sender paid the amount less its dust, the tx fee and, as the call's value, the announced OFT fee.
    expect(await oftBalance(evm, sender.hexAddress as Hex)).toBe(oftBefore - 2n * 10n ** 18n);
    const txFee = BigInt(Math.ceil(gas * evm.chain.info.minGasPrice));
    expect(await bankBalance(evm, sender.address, evm.chain.info.denom)).toBe(
      gasBefore - txFee - BigInt(fee),
    );
  }, 90_000);

  it('sends from the external EVM chain (chain_type evm) as an evm_tx, sent to the rpc /v2/info/chains lists for its chain_id', async () => {
    const ethId = eth.chain.info.chainId;
    const evmId = evm.chain.info.chainId;
    const sender = eth.accounts[1]!;
    const recipient = evm.accounts[2]!;
    const request = {
      source_asset_denom: member(ethId).denom,
      source_asset_chain_id: ethId,
      dest_asset_denom: member(evmId).denom,
      dest_asset_chain_id: evmId,
      amount_in: String(3n * 10n ** 18n),
    };
    const { routed, tx } = await routeAndBuild(url, request, [sender.hexAddress, recipient.address]);
    expect(tx.cosmos_tx).toBeUndefined();
    expect(tx.evm_tx).toMatchObject({
      chain_id: ethId,
      to: member(ethId).oft,
      value: routed.operations[0].layer_zero_transfer.messaging_fee_amount,
      required_erc20_approvals: [],
      signer_address: getAddress(sender.hexAddress),
    });
    // The chain InterwovenKit switches the wallet to: an EVM chain whose chain_id is its EVM chain id,
    // with the JSON-RPC it adds to the wallet as `rpc` and its native currency as `evm_fee_asset`.
    const listed = await listedChain(tx.evm_tx.chain_id);
    expect(listed).toMatchObject({
      chain_type: 'evm',
      rpc: eth.urls.jsonRpc,
      evm_fee_asset: expect.objectContaining({ decimals: 18 }),
    });
    expect(Number(listed.chain_id)).toBe(eth.chain.info.evmChainId);

    const before = await oftBalance(evm, recipient.hexAddress as Hex);
    const hash = await sendEvmTx(listed.rpc, sender, tx.evm_tx);
    const done = await trackToEnd(url, ethId, hash);
    expect(done.state, JSON.stringify(done)).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfer_sequence[0].layer_zero_transfer).toMatchObject({
      from_chain_id: ethId,
      to_chain_id: evmId,
      state: 'LAYER_ZERO_TRANSFER_RECEIVED',
    });
    expect(await oftBalance(evm, recipient.hexAddress as Hex)).toBe(before + BigInt(routed.amount_out));
  }, 90_000);
});
