import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, defineChain, type Hex, http, pad } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2Denom } from 'weft/protocol/opinit.js';
import type { Devnet, DevnetChain, ExternalEvmChain } from 'weft-devnet/devnet.js';
import { omnichainOperator } from 'weft-devnet/omnichain/network.js';
import type { ChainJson } from 'weft-devnet/registry/types.js';
import { callControl } from 'weft-devnet/test-support/control.js';
import { depositor } from 'weft-devnet/test-support/deposit.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { ENDPOINT_CLIENT_ABI, OFT_CLIENT_ABI } from 'weft-devnet/test-support/oft-client.js';
import { until } from 'weft-devnet/test-support/until.js';

/**
 * The full network with its bridges wired in: OPinit deposits from the L1 into every rollup, signed by
 * cosmjs and finalized by the network's executors; an OFT transfer from the EVM rollup to the external EVM
 * chain, signed by viem and delivered by the network's relayer, stalled and released through the control
 * surface; and the executors, bridges and OFT entries in the manifest and the registry folder.
 */

const OFT_ABI = OFT_CLIENT_ABI;
const TOKEN = 10n ** 18n;

const dir = mkdtempSync(join(tmpdir(), 'weft-bridges-'));
let devnet: Devnet;
let l1: DevnetChain;
let evmRollup: DevnetChain;
let eth: ExternalEvmChain;
type Members = Array<{ chain_id: string; eid: number; oft: Hex }>;

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'bridges',
    vms: ['evm', 'move', 'wasm'],
    network: 'full',
    accounts: 3,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
    settings: { opinit: { outputIntervalMs: 1_000, finalizationPeriodMs: 2_000 } },
  });
  l1 = devnet.l1!;
  evmRollup = devnet.rollups.find((c) => c.vm === 'evm')!;
  eth = devnet.external.evm!;
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
}, 120_000);

afterAll(async () => {
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const bankBalance = async (chain: DevnetChain, address: string, denom: string) =>
  BigInt((await chain.chain.balances(address)).find((c) => c.denom === denom)?.amount ?? '0');

const evmChain = (id: number, name: string, url: string) =>
  defineChain({
    id,
    name,
    nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });

describe('the full network with its bridges', () => {
  it('finalizes an L1 deposit into every rollup through the executors', async () => {
    const amount = 123_456n;
    const targets = devnet.rollups.map((rollup, i) => ({
      rollup,
      bridgeId: BigInt(i + 1),
      to: rollup.accounts[1]!.address,
    }));
    const before = await Promise.all(
      targets.map((t) => bankBalance(t.rollup, t.to, l2Denom(t.bridgeId, 'uinit'))),
    );
    for (const [i, t] of targets.entries()) {
      const wallet = await depositor(l1, l1.accounts[i]!);
      await wallet.deposit({ bridgeId: t.bridgeId, to: t.to, amount: String(amount) });
      wallet.close();
    }
    for (const [i, t] of targets.entries()) {
      const denom = l2Denom(t.bridgeId, 'uinit');
      expect(denom).toMatch(/^l2\/[0-9a-f]{64}$/);
      await until(`deposit on ${t.rollup.chain.info.chainId}`, async () =>
        (await bankBalance(t.rollup, t.to, denom)) === before[i]! + amount ? true : undefined,
      );
    }
  }, 60_000);

  /** One end of the OFT bridge as a viem wallet sees it: a public client, a funded account, its endpoint id. */
  const oftEnd = (side: 'rollup' | 'ethereum') => {
    const members = (devnet.manifest().services.omnichain as { members: Members }).members;
    const node = side === 'rollup' ? evmRollup : eth;
    const url = node.urls.jsonRpc!;
    const chain = evmChain(node.chain.info.evmChainId!, side, url);
    const member = members.find((m) => m.chain_id === node.chain.info.chainId)!;
    return { node, chain, member, client: createPublicClient({ chain, transport: http(url) }) };
  };

  /** quoteSend, then send with the quoted fee as value, signed by viem as a wallet does. */
  const sendOft = async (
    from: ReturnType<typeof oftEnd>,
    to: ReturnType<typeof oftEnd>,
    recipient: Hex,
    amount: bigint,
  ) => {
    const sender = from.node.accounts[0]!;
    const wallet = createWalletClient({
      chain: from.chain,
      transport: http(from.node.urls.jsonRpc!),
      account: privateKeyToAccount(sender.privateKey as Hex),
    });
    const sendParam = {
      dstEid: to.member.eid,
      to: pad(recipient, { size: 32 }),
      amountLD: amount,
      minAmountLD: amount,
      extraOptions: '0x' as Hex,
      composeMsg: '0x' as Hex,
      oftCmd: '0x' as Hex,
    };
    const fee = await from.client.readContract({
      address: from.member.oft,
      abi: OFT_ABI,
      functionName: 'quoteSend',
      args: [sendParam, false],
    });
    const hash = await wallet.writeContract({
      address: from.member.oft,
      abi: OFT_ABI,
      functionName: 'send',
      args: [sendParam, fee, sender.hexAddress as Hex],
      value: fee.nativeFee,
    });
    expect((await from.client.waitForTransactionReceipt({ hash })).status).toBe('success');
  };
  const oftBalance = (end: ReturnType<typeof oftEnd>, holder: Hex) =>
    end.client.readContract({
      address: end.member.oft,
      abi: OFT_ABI,
      functionName: 'balanceOf',
      args: [holder],
    });
  const oftSupply = (end: ReturnType<typeof oftEnd>) =>
    end.client.readContract({ address: end.member.oft, abi: OFT_ABI, functionName: 'totalSupply' });

  it('delivers an OFT transfer from the EVM rollup to the external EVM chain, and stalls it while paused', async () => {
    const rollup = oftEnd('rollup');
    const ethereum = oftEnd('ethereum');
    const recipient = eth.accounts[2]!.hexAddress as Hex;
    const balance = () => oftBalance(ethereum, recipient);
    const supplies = async () => (await oftSupply(rollup)) + (await oftSupply(ethereum));
    const supplyBefore = await supplies();

    const start = await balance();
    await sendOft(rollup, ethereum, recipient, 2n * TOKEN);
    await until('OFT delivery', async () => ((await balance()) === start + 2n * TOKEN ? true : undefined));
    // Burnt on one side, minted on the other: the two chains together hold what they held.
    expect(await supplies()).toBe(supplyBefore);

    expect(await callControl(devnet.control.url, 'weft_pauseRelayer', ['omnichain'])).toMatchObject({
      paused: true,
    });
    await sendOft(rollup, ethereum, recipient, TOKEN);
    const pausedAt = evmRollup.chain.latestHeight();
    await until('blocks while paused', async () => evmRollup.chain.latestHeight() >= pausedAt + 8);
    expect(await balance()).toBe(start + 2n * TOKEN);
    // In flight: burnt on the rollup, not yet minted on the external chain.
    expect(await supplies()).toBe(supplyBefore - TOKEN);
    expect(await callControl(devnet.control.url, 'weft_resumeRelayer', ['omnichain'])).toMatchObject({
      paused: false,
    });
    await until('OFT delivery after resume', async () =>
      (await balance()) === start + 3n * TOKEN ? true : undefined,
    );
    expect(await supplies()).toBe(supplyBefore);
  }, 60_000);

  it('delivers an OFT transfer from the external EVM chain to the EVM rollup', async () => {
    const rollup = oftEnd('rollup');
    const ethereum = oftEnd('ethereum');
    const recipient = evmRollup.accounts[2]!.hexAddress as Hex;
    const supplies = async () => (await oftSupply(rollup)) + (await oftSupply(ethereum));
    const supplyBefore = await supplies();
    const start = await oftBalance(rollup, recipient);
    const senderStart = await oftBalance(ethereum, eth.accounts[0]!.hexAddress as Hex);
    await sendOft(ethereum, rollup, recipient, TOKEN);
    expect(await oftBalance(ethereum, eth.accounts[0]!.hexAddress as Hex)).toBe(senderStart - TOKEN);
    await until('OFT delivery on the rollup', async () =>
      (await oftBalance(rollup, recipient)) === start + TOKEN ? true : undefined,
    );
    expect(await supplies()).toBe(supplyBefore);
  }, 60_000);

  it('keeps a delivery into a paused OFT verified, alerts, and delivers it when retried through the control surface', async () => {
    const rollup = oftEnd('rollup');
    const ethereum = oftEnd('ethereum');
    const operator = omnichainOperator('bridges', 'ethsecp256k1', 'init');
    const admin = createWalletClient({
      chain: rollup.chain,
      transport: http(evmRollup.urls.jsonRpc!),
      account: privateKeyToAccount(operator.privateKey as Hex),
    });
    const setPaused = async (paused: boolean) => {
      const hash = await admin.writeContract({
        address: rollup.member.oft,
        abi: OFT_ABI,
        functionName: 'setPaused',
        args: [paused],
      });
      expect((await rollup.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    const recipient = evmRollup.accounts[1]!.hexAddress as Hex;
    const start = await oftBalance(rollup, recipient);
    const supplies = async () => (await oftSupply(rollup)) + (await oftSupply(ethereum));
    const supplyBefore = await supplies();
    const from = await rollup.client.getBlockNumber();
    await setPaused(true);
    await sendOft(ethereum, rollup, recipient, TOKEN);
    const alert = await until('the receive alert', async () => {
      const logs = await rollup.client.getContractEvents({
        abi: ENDPOINT_CLIENT_ABI,
        eventName: 'LzReceiveAlert',
        fromBlock: from,
      });
      return logs[0];
    });
    expect(await oftBalance(rollup, recipient)).toBe(start);
    expect(await supplies()).toBe(supplyBefore - TOKEN);
    await setPaused(false);
    expect(await callControl(devnet.control.url, 'weft_retryDelivery', [alert.args.guid])).toMatchObject({
      retried: expect.any(Number),
    });
    await until('the retried delivery', async () =>
      (await oftBalance(rollup, recipient)) === start + TOKEN ? true : undefined,
    );
    expect(await supplies()).toBe(supplyBefore);
    expect(await callControl(devnet.control.url, 'weft_retryDelivery', ['nonsense'])).toBeUndefined();
  }, 60_000);

  it('lists executors, bridges, op denoms and OFT entries in the manifest and the registry', async () => {
    const manifest = devnet.manifest();
    const opinit = manifest.services.opinit as {
      bridges: Array<{ chain_id: string; bridge_id: string; executor_uri: string; l2_denom: string }>;
    };
    expect(opinit.bridges.map((b) => [b.chain_id, b.bridge_id])).toEqual([
      ['weft-evm-1', '1'],
      ['weft-move-1', '2'],
      ['weft-wasm-1', '3'],
    ]);
    for (const bridge of opinit.bridges) {
      expect(bridge.executor_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const status = await fetch(`${bridge.executor_uri}/status`);
      expect(status.ok).toBe(true);
      const rollup = devnet.rollups.find((c) => c.chain.info.chainId === bridge.chain_id)!;
      const entry = JSON.parse(
        readFileSync(join(dir, 'registry', rollup.plan.chainName, 'chain.json'), 'utf8'),
      ) as ChainJson;
      expect(entry.metadata).toMatchObject({
        op_bridge_id: bridge.bridge_id,
        op_denoms: ['uinit'],
        executor_uri: bridge.executor_uri,
      });
      const assets = JSON.parse(
        readFileSync(join(dir, 'registry', rollup.plan.chainName, 'assetlist.json'), 'utf8'),
      ) as { assets: Array<{ base: string }> };
      expect(assets.assets.map((a) => a.base)).toContain(bridge.l2_denom);
    }
    const members = (manifest.services.omnichain as { members: Members }).members;
    expect(members.map((m) => m.chain_id).sort()).toEqual(['31337', 'weft-evm-1', 'weft-l1-1']);
    for (const chain of [l1, evmRollup, eth]) {
      const entry = JSON.parse(
        readFileSync(join(dir, 'registry', chain.plan.chainName, 'chain.json'), 'utf8'),
      ) as ChainJson;
      expect(entry.metadata.omnichain).toMatchObject({ chain_id: chain.chain.info.chainId });
    }
    const relayers = (await callControl(devnet.control.url, 'weft_relayers', [])) as Array<{ name: string }>;
    expect(relayers.map((r) => r.name).sort()).toEqual([
      'ibc',
      'omnichain',
      'opinit-executor-weft-evm-1',
      'opinit-executor-weft-move-1',
      'opinit-executor-weft-wasm-1',
      'opinit-submitter-weft-evm-1',
      'opinit-submitter-weft-move-1',
      'opinit-submitter-weft-wasm-1',
    ]);
  });
});
