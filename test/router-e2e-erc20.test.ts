import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, type Hex, http, parseAbi, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shutdown } from 'weft/common/shutdown.js';
import { erc20Denom } from 'weft/protocol/evm-denom.js';
import { escrowAddressBytes } from 'weft/protocol/ics20.js';
import { ibcDenomOf, parseIbcPath } from 'weft/router/graph/denoms.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { signAndBroadcastEip191 } from './eth-signer-support.js';
import { routeAndBuild, routerOnDevnet, trackToEnd } from './router-api-support.js';
import { bankBalance, decode, evmChain, signAndBroadcast } from './router-wallet-support.js';

/**
 * An ERC20 of the EVM rollup over IBC through `weft router`, both ways, as minievm moves it: a user makes
 * the token with the chain's ERC20 factory and mints it; `weft_listErc20` lists it (`evm/<contract>`) and
 * its L1 voucher in the devnet's registry; the router's MsgTransfer of `evm/<contract>` escrows it on the
 * rollup (the bank's `sudoTransfer`) and the L1 mints `ibc/<hash>`; the voucher's MsgTransfer back burns
 * it on the L1 and releases the escrow. Each tx is signed for real, tracked to `STATE_COMPLETED_SUCCESS`,
 * and the balances are read from the nodes (`balanceOf` over JSON-RPC, the L1's bank).
 */

const TOKEN_ABI = parseAbi([
  'function createERC20(string name, string symbol, uint8 decimals) returns (address)',
  'event ERC20Created(address indexed erc20, address indexed owner)',
  'function mint(address to, uint256 amount)',
  'function balanceOf(address) view returns (uint256)',
]);

let dir: string;
let devnet: Devnet;
let l1: DevnetChain;
let evm: DevnetChain;
let url: string;
let shutdown: Shutdown;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-erc20-'));
  devnet = await testDevnet({
    seed: 'router-e2e-erc20',
    vms: ['evm'],
    network: 'full',
    accounts: 2,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
  });
  devnet.run();
  l1 = devnet.l1!;
  evm = devnet.rollups[0]!;
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
}, 120_000);

afterAll(async () => {
  await shutdown?.kill();
  await devnet?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const reader = () =>
  createPublicClient({ chain: evmChain(evm.chain.info.evmChainId!, evm.urls.jsonRpc!), transport: http() });

const erc20Balance = (token: Hex, holder: string) =>
  reader().readContract({ address: token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [holder as Hex] });

/** A user's token: `createERC20` of the factory minievm names at `contracts/erc20_factory`, then `mint`. */
async function createToken(supply: bigint): Promise<Hex> {
  const owner = evm.accounts[0]!;
  const factory = (await (await fetch(`${evm.urls.rest}/minievm/evm/v1/contracts/erc20_factory`)).json()) as {
    address: Hex;
  };
  const wallet = createWalletClient({
    chain: evmChain(evm.chain.info.evmChainId!, evm.urls.jsonRpc!),
    transport: http(),
    account: privateKeyToAccount(owner.privateKey as Hex),
  });
  const created = await reader().waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: factory.address,
      abi: TOKEN_ABI,
      functionName: 'createERC20',
      args: ['Weft Test Token', 'WTT', 6],
    }),
  });
  expect(created.status).toBe('success');
  const [event] = parseEventLogs({ abi: TOKEN_ABI, eventName: 'ERC20Created', logs: created.logs });
  const token = event!.args.erc20;
  const minted = await reader().waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: token,
      abi: TOKEN_ABI,
      functionName: 'mint',
      args: [owner.hexAddress as Hex, supply],
    }),
  });
  expect(minted.status).toBe('success');
  return token;
}

/** The one MsgTransfer of a `/msgs` tx, decoded as a wallet decodes it. */
function transferOf(tx: any, chainId: string) {
  expect(tx.cosmos_tx.chain_id).toBe(chainId);
  const msgs = tx.cosmos_tx.msgs.map(decode);
  expect(msgs.map((m: { typeUrl: string }) => m.typeUrl)).toEqual([
    '/ibc.applications.transfer.v1.MsgTransfer',
  ]);
  return msgs;
}

describe('weft router: an ERC20 of the EVM rollup over IBC, both ways', () => {
  it('creates a factory ERC20, lists it, and moves it rollup → L1 and back, tracked to success', async () => {
    const evmId = evm.chain.info.chainId;
    const l1Id = l1.chain.info.chainId;
    const token = await createToken(1_000_000_000n);
    const answer = (await (
      await fetch(devnet.control.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'weft_listErc20', params: [evmId, token] }),
      })
    ).json()) as { result: { denom: string; voucher: string }; error?: unknown };
    expect(answer.error).toBeUndefined();
    const listed = answer.result;
    const denom = erc20Denom(token);
    expect(listed.denom).toBe(denom);
    // The L1 voucher as the real registry lists one: an ibc trace whose path hashes to its base.
    const l1Assets = JSON.parse(readFileSync(join(dir, 'registry', 'initia', 'assetlist.json'), 'utf8'));
    const voucherAsset = l1Assets.assets.find((a: any) => a.base === listed.voucher);
    const [trace] = voucherAsset.traces;
    expect(trace).toMatchObject({ type: 'ibc', counterparty: { chain_id: evmId, base_denom: denom } });
    expect(ibcDenomOf(parseIbcPath(trace.chain.path))).toBe(listed.voucher);
    expect(trace.chain.path).toBe(`transfer/${trace.chain.channel_id}/${denom}`);
    // The router reads the registry as it stands at its start.
    ({ url, shutdown } = await routerOnDevnet(devnet));

    // Rollup → L1, asked with the denom in lower case (minievm reads it in any case); the msg names it
    // as listed, the spelling the voucher hashes.
    const owner = evm.accounts[0]!;
    const l1Holder = l1.accounts[1]!;
    const out = await routeAndBuild(
      url,
      {
        source_asset_denom: denom.toLowerCase(),
        source_asset_chain_id: evmId,
        dest_asset_denom: listed.voucher,
        dest_asset_chain_id: l1Id,
        amount_in: '400000',
      },
      [owner.address, l1Holder.address],
    );
    expect(out.routed.amount_out).toBe('400000');
    const outMsgs = transferOf(out.tx, evmId);
    expect(outMsgs[0].value).toMatchObject({
      sourcePort: 'transfer',
      sourceChannel: trace.counterparty.channel_id,
      token: { denom, amount: '400000' },
      sender: owner.address,
      receiver: l1Holder.address,
    });
    const escrow = `0x${Buffer.from(escrowAddressBytes('transfer', trace.counterparty.channel_id)).toString('hex')}`;
    const ownerBefore = await erc20Balance(token, owner.hexAddress);
    const outHash = await signAndBroadcastEip191(evm, owner, outMsgs);
    const outDone = await trackToEnd(url, evmId, outHash);
    expect(outDone.state, JSON.stringify(outDone)).toBe('STATE_COMPLETED_SUCCESS');
    expect(outDone.transfer_sequence).toHaveLength(1);
    expect(outDone.transfer_sequence[0].ibc_transfer).toMatchObject({
      from_chain_id: evmId,
      to_chain_id: l1Id,
    });
    expect(await erc20Balance(token, owner.hexAddress)).toBe(ownerBefore - 400_000n);
    expect(await erc20Balance(token, escrow)).toBe(400_000n);
    expect(await bankBalance(l1, l1Holder.address, listed.voucher)).toBe(400_000n);

    // L1 → rollup: the voucher goes home over the L1's end of the channel; the escrow pays out the ERC20.
    const evmHolder = evm.accounts[1]!;
    const back = await routeAndBuild(
      url,
      {
        source_asset_denom: listed.voucher,
        source_asset_chain_id: l1Id,
        dest_asset_denom: denom,
        dest_asset_chain_id: evmId,
        amount_in: '150000',
      },
      [l1Holder.address, evmHolder.address],
    );
    const backMsgs = transferOf(back.tx, l1Id);
    expect(backMsgs[0].value).toMatchObject({
      sourcePort: 'transfer',
      sourceChannel: trace.chain.channel_id,
      token: { denom: listed.voucher, amount: '150000' },
      sender: l1Holder.address,
      receiver: evmHolder.address,
    });
    const backHash = await signAndBroadcast(l1, l1Holder, backMsgs);
    const backDone = await trackToEnd(url, l1Id, backHash);
    expect(backDone.state, JSON.stringify(backDone)).toBe('STATE_COMPLETED_SUCCESS');
    // Both ends of this channel are channel-0: the packet's receive is the rollup's, not the L1's of the
    // packet that went the other way with the same sequence.
    expect(backDone.transfer_sequence[0].ibc_transfer).toMatchObject({
      from_chain_id: l1Id,
      to_chain_id: evmId,
    });
    expect(await bankBalance(l1, l1Holder.address, listed.voucher)).toBe(250_000n);
    expect(await erc20Balance(token, evmHolder.hexAddress)).toBe(150_000n);
    // The rollup's bank lists it among the holder's coins, as minievm lists an account's ERC20 stores.
    expect(await bankBalance(evm, evmHolder.address, denom)).toBe(150_000n);
    expect(await erc20Balance(token, escrow)).toBe(250_000n);
  }, 90_000);
});
