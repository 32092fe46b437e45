import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { assets, chains, messages, messagesDirect, route, setApiOptions } from '@skip-go/client';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { createPublicClient, type Hex, http, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { l2Denom } from 'weft/protocol/opinit.js';
import { ibcDenomOf, parseIbcPath } from 'weft/router/graph/denoms.js';
import type { DevnetChain } from 'weft-devnet/devnet.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import { until } from 'weft-devnet/test-support/until.js';
import { signAndBroadcastEip191 } from './eth-signer-support.js';
import { post as postTo } from './router-api-support.js';
import { useRouterDevnet } from './router-devnet-support.js';
import {
  aminoTypes,
  bankBalance,
  decode,
  evmChain,
  protos,
  signAndBroadcast,
} from './router-wallet-support.js';

/**
 * The router against the full devnet, used as wallets use it: route → msgs → each `cosmos_tx` msg
 * decoded with the Initia amino types (as interwovenkit does) and signed by cosmjs (amino JSON or direct;
 * on the EVM rollup by an Ethereum key in SIGN_MODE_EIP_191) → broadcast → the recipient's balance grows
 * by the route's `amount_out`: OPinit deposits, IBC one hop in and two hops out through a forward memo, an
 * OFT transfer from the EVM rollup (a MsgCall), a deposit with an op hook. The same
 * through @skip-go/client. Its HTTP surface on the same devnet is router-devnet-surface.test.ts.
 */

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

const net = useRouterDevnet('router');
const post = (path: string, body: unknown) => postTo(net.url, path, body);

describe('the router on the full devnet', () => {
  it('routes, builds and delivers an OPinit deposit L1 → EVM rollup signed by cosmjs', async () => {
    const denom = l2Denom('1', 'uinit');
    const request = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: net.l1.chain.info.chainId,
      dest_asset_denom: denom,
      dest_asset_chain_id: net.evmRollup.chain.info.chainId,
      amount_in: '250000',
    };
    const routed = await post('/v2/fungible/route', request);
    expect(routed.status).toBe(200);
    expect(routed.json.operations).toHaveLength(1);
    expect(routed.json.operations[0].op_init_transfer).toMatchObject({
      op_init_bridge_id: '1',
      bridge_id: 'OPINIT',
    });
    expect(routed.json).toMatchObject({ txs_required: 1, does_swap: false, required_op_hook: false });
    // Equal inputs, byte-equal answers.
    const again = await fetch(`${net.url}/v2/fungible/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(await again.text()).toBe(JSON.stringify(routed.json));

    const sender = net.l1.accounts[0]!;
    const recipient = net.evmRollup.accounts[1]!.address;
    const built = await post('/v2/fungible/msgs', {
      ...request,
      amount_out: routed.json.amount_out,
      address_list: [sender.address, recipient],
      operations: routed.json.operations,
      slippage_tolerance_percent: '1',
    });
    expect(built.status, JSON.stringify(built.json)).toBe(200);
    const tx = built.json.txs[0].cosmos_tx;
    expect(tx.chain_id).toBe(net.l1.chain.info.chainId);
    const msgs = tx.msgs.map(decode);
    expect(msgs[0].typeUrl).toBe('/opinit.ophost.v1.MsgInitiateTokenDeposit');
    expect(msgs[0].value).toMatchObject({ sender: sender.address, to: recipient, bridgeId: 1n });
    const before = await bankBalance(net.evmRollup, recipient, denom);
    await signAndBroadcast(net.l1, sender, msgs);
    const amountOut = BigInt(routed.json.amount_out);
    await until(
      'deposit finalized',
      async () => (await bankBalance(net.evmRollup, recipient, denom)) === before + amountOut,
    );
  }, 60_000);

  it('routes IBC L1 → rollup, then a two-hop rollup → L1 → Cosmos chain through a forward memo, each signed in amino JSON', async () => {
    const voucher = ibcDenomOf(parseIbcPath('transfer/channel-0/uinit'));
    const move = net.moveRollup.chain.info.chainId;
    const cosmosChain = net.devnet.external.cosmos!;
    const holder = net.moveRollup.accounts[0]!;
    const deliver = async (
      request: Record<string, string>,
      addresses: string[],
      from: DevAccount,
      chain: DevnetChain,
    ) => {
      const routed = await post('/v2/fungible/route', request);
      expect(routed.status, JSON.stringify(routed.json)).toBe(200);
      const built = await post('/v2/fungible/msgs', {
        ...request,
        address_list: addresses,
        operations: routed.json.operations,
      });
      expect(built.status, JSON.stringify(built.json)).toBe(200);
      const msgs = built.json.txs[0].cosmos_tx.msgs.map(decode);
      expect(msgs[0].typeUrl).toBe('/ibc.applications.transfer.v1.MsgTransfer');
      await signAndBroadcast(chain, from, msgs);
      return { routed: routed.json, msg: msgs[0] };
    };

    const inbound = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: net.l1.chain.info.chainId,
      dest_asset_denom: voucher,
      dest_asset_chain_id: move,
      amount_in: '300000',
    };
    const before = await bankBalance(net.moveRollup, holder.address, voucher);
    const first = await deliver(
      inbound,
      [net.l1.accounts[1]!.address, holder.address],
      net.l1.accounts[1]!,
      net.l1,
    );
    expect(first.routed.operations[0].transfer).toMatchObject({
      channel: 'channel-1',
      to_chain_id: move,
      denom_out: voucher,
    });
    expect(first.msg.value.memo).toBe('');
    await until(
      'voucher on the rollup',
      async () =>
        (await bankBalance(net.moveRollup, holder.address, voucher)) ===
        before + BigInt(first.routed.amount_out),
    );

    const recipient = cosmosChain.accounts[1]!.address;
    const outbound = {
      source_asset_denom: voucher,
      source_asset_chain_id: move,
      dest_asset_denom: voucher,
      dest_asset_chain_id: cosmosChain.chain.info.chainId,
      amount_in: '120000',
    };
    const atCosmos = await bankBalance(cosmosChain, recipient, voucher);
    const second = await deliver(
      outbound,
      [holder.address, net.l1.accounts[1]!.address, recipient],
      holder,
      net.moveRollup,
    );
    expect(second.routed.chain_ids).toEqual([
      move,
      net.l1.chain.info.chainId,
      cosmosChain.chain.info.chainId,
    ]);
    expect(second.routed.operations.map((o: any) => o.transfer.channel)).toEqual(['channel-0', 'channel-3']);
    expect(JSON.parse(second.msg.value.memo).forward).toMatchObject({
      receiver: recipient,
      channel: 'channel-3',
    });
    await until(
      'two hops delivered',
      async () =>
        (await bankBalance(cosmosChain, recipient, voucher)) === atCosmos + BigInt(second.routed.amount_out),
    );
  }, 90_000);

  it('forces the OPinit withdrawal with is_op_withdraw: the wait is the finalization period plus the output interval', async () => {
    const denom = l2Denom('2', 'uinit');
    const routed = await post('/v2/fungible/route', {
      source_asset_denom: denom,
      source_asset_chain_id: net.moveRollup.chain.info.chainId,
      dest_asset_denom: 'uinit',
      dest_asset_chain_id: net.l1.chain.info.chainId,
      amount_in: '1000',
      is_op_withdraw: true,
    });
    expect(routed.status, JSON.stringify(routed.json)).toBe(200);
    expect(routed.json.estimated_route_duration_seconds).toBe(2 + 1);
    expect(routed.json.operations[0].op_init_transfer).toMatchObject({
      op_init_bridge_id: '2',
      denom_out: 'uinit',
    });
    expect(routed.json.extra_infos).toHaveLength(1);
    const sender = net.moveRollup.accounts[0]!.address;
    const recipient = net.l1.accounts[2]!.address;
    const built = await post('/v2/fungible/msgs', {
      source_asset_denom: denom,
      source_asset_chain_id: net.moveRollup.chain.info.chainId,
      dest_asset_denom: 'uinit',
      dest_asset_chain_id: net.l1.chain.info.chainId,
      amount_in: '1000',
      address_list: [sender, recipient],
      operations: routed.json.operations,
    });
    expect(built.status, JSON.stringify(built.json)).toBe(200);
    const [msg] = built.json.txs[0].cosmos_tx.msgs.map(decode);
    expect(msg.typeUrl).toBe('/opinit.opchild.v1.MsgInitiateTokenWithdrawal');
    expect(msg.value).toEqual({ sender, to: recipient, amount: { denom, amount: '1000' } });
    // A withdrawal of an asset the rollup's bridge does not carry has no route.
    const none = await post('/v2/fungible/route', {
      source_asset_denom: 'umin',
      source_asset_chain_id: net.moveRollup.chain.info.chainId,
      dest_asset_denom: 'uinit',
      dest_asset_chain_id: net.l1.chain.info.chainId,
      amount_in: '1000',
      is_op_withdraw: true,
    });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ code: 3, details: [] });
  });

  it('sends OFT from the EVM rollup to the external EVM chain as a cosmos_tx of one MsgCall, signed in SIGN_MODE_EIP_191', async () => {
    const members = (
      net.devnet.manifest().services.omnichain as {
        members: Array<{ chain_id: string; oft: Hex; denom: string }>;
      }
    ).members;
    const source = members.find((m) => m.chain_id === net.evmRollup.chain.info.chainId)!;
    const target = members.find((m) => m.chain_id === net.eth.chain.info.chainId)!;
    const sender = net.evmRollup.accounts[0]!;
    const recipient = net.eth.accounts[2]!.hexAddress as Hex;
    const request = {
      source_asset_denom: source.denom,
      source_asset_chain_id: net.evmRollup.chain.info.chainId,
      dest_asset_denom: target.denom,
      dest_asset_chain_id: net.eth.chain.info.chainId,
      amount_in: String(3n * 10n ** 18n + 123n),
    };
    const routed = await post('/v2/fungible/route', request);
    expect(routed.status, JSON.stringify(routed.json)).toBe(200);
    const op = routed.json.operations[0].layer_zero_transfer;
    expect(op).toMatchObject({ bridge_id: 'LAYER_ZERO', source_oft_contract_address: source.oft });
    // Dust below the shared decimals stays with the sender.
    expect(routed.json.amount_out).toBe(String(3n * 10n ** 18n));
    expect(routed.json.estimated_fees[0]).toMatchObject({
      fee_behavior: 'FEE_BEHAVIOR_ADDITIONAL',
      amount: op.messaging_fee_amount,
    });
    // InterwovenKit names an Initia chain's account in bech32.
    const built = await post('/v2/fungible/msgs', {
      ...request,
      address_list: [sender.address, recipient],
      operations: routed.json.operations,
    });
    expect(built.status, JSON.stringify(built.json)).toBe(200);
    const tx = built.json.txs[0].cosmos_tx;
    expect(tx, JSON.stringify(built.json.txs[0])).toMatchObject({
      chain_id: net.evmRollup.chain.info.chainId,
      signer_address: sender.address,
    });
    const msgs = tx.msgs.map(decode);
    expect(msgs).toEqual([
      {
        typeUrl: '/minievm.evm.v1.MsgCall',
        value: expect.objectContaining({
          sender: sender.address,
          contractAddr: source.oft,
          value: op.messaging_fee_amount,
        }),
      },
    ]);
    const target_ = createPublicClient({
      chain: evmChain(net.eth.chain.info.evmChainId!, net.eth.urls.jsonRpc),
      transport: http(),
    });
    const balance = () =>
      target_.readContract({ address: target.oft, abi: ERC20, functionName: 'balanceOf', args: [recipient] });
    const before = await balance();
    await signAndBroadcastEip191(net.evmRollup, sender, msgs);
    await until('OFT delivered', async () => (await balance()) === before + BigInt(routed.json.amount_out));
  }, 60_000);

  it('answers @skip-go/client: route, messages, messagesDirect, chains and assets, camelCased', async () => {
    setApiOptions({ apiUrl: net.url });
    const denom = l2Denom('3', 'uinit');
    const wasmRollup = net.devnet.rollups.find((c) => c.vm === 'wasm')!;
    const routed = await route({
      sourceAssetDenom: 'uinit',
      sourceAssetChainId: net.l1.chain.info.chainId,
      destAssetDenom: denom,
      destAssetChainId: wasmRollup.chain.info.chainId,
      amountIn: '5000',
    });
    expect(routed?.operations[0]).toMatchObject({ opInitTransfer: { opInitBridgeId: '3' } });
    expect(routed?.requiredChainAddresses).toEqual([
      net.l1.chain.info.chainId,
      wasmRollup.chain.info.chainId,
    ]);
    const built = await messages({
      sourceAssetDenom: 'uinit',
      sourceAssetChainId: net.l1.chain.info.chainId,
      destAssetDenom: denom,
      destAssetChainId: wasmRollup.chain.info.chainId,
      amountIn: '5000',
      amountOut: routed!.amountOut,
      addressList: [net.l1.accounts[1]!.address, wasmRollup.accounts[1]!.address],
      operations: routed!.operations,
      slippageTolerancePercent: '1',
    });
    const tx = built?.txs?.[0] as { cosmosTx?: { msgs: Array<{ msg: string; msgTypeUrl: string }> } };
    const [msg] = tx.cosmosTx!.msgs.map((m) => decode({ msg: m.msg, msg_type_url: m.msgTypeUrl }));
    expect(msg!.value).toMatchObject({ bridgeId: 3n, to: wasmRollup.accounts[1]!.address });
    const direct = await messagesDirect({
      sourceAssetDenom: 'uinit',
      sourceAssetChainId: net.l1.chain.info.chainId,
      destAssetDenom: denom,
      destAssetChainId: wasmRollup.chain.info.chainId,
      amountIn: '5000',
      chainIdsToAddresses: {
        [net.l1.chain.info.chainId]: net.l1.accounts[1]!.address,
        [wasmRollup.chain.info.chainId]: wasmRollup.accounts[1]!.address,
      },
      slippageTolerancePercent: '1',
    });
    expect(direct?.route?.operations).toEqual(routed?.operations);
    expect((direct!.txs![0] as typeof tx).cosmosTx!.msgs).toEqual(tx.cosmosTx!.msgs);
    const listed = await chains({ chainIds: [net.l1.chain.info.chainId, wasmRollup.chain.info.chainId] });
    expect(listed?.map((c) => c.chainId)).toEqual([net.l1.chain.info.chainId, wasmRollup.chain.info.chainId]);
    const held = await assets({ chainIds: [wasmRollup.chain.info.chainId] });
    expect(held?.[wasmRollup.chain.info.chainId]?.map((a) => a.denom)).toContain(denom);
    const before = await bankBalance(wasmRollup, wasmRollup.accounts[1]!.address, denom);
    await signAndBroadcast(net.l1, net.l1.accounts[1]!, [msg!], 'direct');
    await until(
      'deposit finalized',
      async () =>
        (await bankBalance(wasmRollup, wasmRollup.accounts[1]!.address, denom)) ===
        before + BigInt(routed!.amountOut),
    );
  }, 60_000);

  it('puts a checked signed_op_hook into the deposit: the hook runs as the recipient when the deposit lands', async () => {
    const denom = l2Denom('2', 'uinit');
    const request = {
      source_asset_denom: 'uinit',
      source_asset_chain_id: net.l1.chain.info.chainId,
      dest_asset_denom: denom,
      dest_asset_chain_id: net.moveRollup.chain.info.chainId,
      amount_in: '4000',
    };
    const routed = await post('/v2/fungible/route', request);
    const recipient = net.moveRollup.accounts[1]!;
    const payee = net.moveRollup.accounts[2]!.address;
    // The hook: a MsgSend on the rollup signed by the recipient (cosmjs, direct mode, no fee).
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(recipient.mnemonic, { prefix: 'init' });
    const info = (await (
      await fetch(`${net.moveRollup.urls.rest}/cosmos/auth/v1beta1/account_info/${recipient.address}`)
    ).json()) as { info: { account_number: string; sequence: string } };
    const signer = await SigningStargateClient.offline(wallet, { registry: protos, aminoTypes });
    const hookTx = await signer.sign(
      recipient.address,
      [
        {
          typeUrl: '/cosmos.bank.v1beta1.MsgSend',
          value: {
            fromAddress: recipient.address,
            toAddress: payee,
            amount: [{ denom: 'umin', amount: '777' }],
          },
        },
      ],
      { amount: [], gas: '200000' },
      '',
      {
        accountNumber: BigInt(info.info.account_number),
        sequence: Number(info.info.sequence),
        chainId: net.moveRollup.chain.info.chainId,
      },
    );
    const hook = Buffer.from(TxRaw.encode(hookTx).finish()).toString('base64');
    const base = {
      ...request,
      address_list: [net.l1.accounts[2]!.address, recipient.address],
      operations: routed.json.operations,
    };
    for (const wrong of [
      { signer: payee, hook },
      { signer: recipient.address, hook: 'not base64!' },
      { signer: recipient.address, hook: Buffer.from('junk').toString('base64') },
    ]) {
      const refused = await post('/v2/fungible/msgs', { ...base, signed_op_hook: wrong });
      expect(refused.status).toBe(400);
      expect(refused.json.message).toMatch(/signed_op_hook/);
    }
    const built = await post('/v2/fungible/msgs', {
      ...base,
      signed_op_hook: { signer: recipient.address, hook },
    });
    expect(built.status, JSON.stringify(built.json)).toBe(200);
    const [msg] = built.json.txs[0].cosmos_tx.msgs.map(decode);
    expect(Buffer.from(msg.value.data).toString('base64')).toBe(hook);
    const before = await bankBalance(net.moveRollup, payee, 'umin');
    await signAndBroadcast(net.l1, net.l1.accounts[2]!, [msg]);
    await until('hook ran', async () => (await bankBalance(net.moveRollup, payee, 'umin')) === before + 777n);
  }, 60_000);
});
