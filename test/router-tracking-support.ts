import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, defineChain, type Hex, http, pad, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TrackedChain } from 'weft/router/tracking/types.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { callControl } from 'weft-devnet/test-support/control.js';
import { depositor } from 'weft-devnet/test-support/deposit.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { until } from 'weft-devnet/test-support/until.js';
import { type IbcTestChain, latestTimeNs, sendTransfer } from './ibc-support.js';

export { depositor, until };

/** Wallet actions of the tracking tests: cosmjs-signed L1 deposits, viem-signed OFT sends. */

/** The full network, running at 5 blocks a second, with quick OPinit outputs; `close` removes its folder. */
export async function trackingDevnet(seed: string): Promise<{ devnet: Devnet; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-tracking-'));
  const devnet = await testDevnet({
    seed,
    vms: ['evm', 'move', 'wasm'],
    network: 'full',
    accounts: 4,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
    settings: { opinit: { outputIntervalMs: 1_000, finalizationPeriodMs: 2_000 } },
  });
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
  return {
    devnet,
    async close() {
      await devnet.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The chains the router follows, as the registry reader gives them (here from the devnet's manifest). */
export function trackedChains(devnet: Devnet): TrackedChain[] {
  const manifest = devnet.manifest();
  const bridges = (manifest.services.opinit as { bridges: Array<{ chain_id: string; bridge_id: string }> })
    .bridges;
  const members = (manifest.services.omnichain as { members: Array<{ chain_id: string; eid: number }> })
    .members;
  return devnet.all.map((chain) => {
    const chainId = chain.chain.info.chainId;
    const urls = chain.urls as { rpc?: string; rest?: string; jsonRpc?: string };
    return {
      chainId,
      kind: urls.rpc ? 'cosmos' : 'evm',
      rpc: urls.rpc,
      rest: urls.rest,
      jsonRpc: urls.jsonRpc,
      isL1: chain.role === 'l1',
      opBridgeId: bridges.find((b) => b.chain_id === chainId)?.bridge_id,
      omnichainEid: members.find((m) => m.chain_id === chainId)?.eid,
    };
  });
}

/**
 * `count` L1 deposits from the first four accounts, spread over the three bridges, each handed to
 * `tracked` once broadcast (a wallet tracks right after its tx is accepted). Answers the hashes.
 */
export async function depositMany(
  devnet: Devnet,
  count: number,
  tracked: (hash: string, i: number) => Promise<unknown>,
): Promise<string[]> {
  const l1 = devnet.l1!;
  const wallets = await Promise.all(l1.accounts.slice(0, 4).map((account) => depositor(l1, account)));
  const hashes: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const rollup = devnet.rollups[i % 3]!;
      const hash = await wallets[i % 4]!.deposit({
        bridgeId: BigInt((i % 3) + 1),
        to: rollup.accounts[3]!.address,
        amount: String(1 + i),
      });
      hashes.push(hash);
      await tracked(hash, i);
    }
  } finally {
    for (const w of wallets) w.close();
  }
  return hashes;
}

const OFT_ABI = parseAbi([
  'struct SendParam { uint32 dstEid; bytes32 to; uint256 amountLD; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; bytes oftCmd; }',
  'struct MessagingFee { uint256 nativeFee; uint256 lzTokenFee; }',
  'function quoteSend(SendParam sendParam, bool payInLzToken) view returns (MessagingFee)',
  'function send(SendParam sendParam, MessagingFee fee, address refundAddress) payable returns ((bytes32 guid, uint64 nonce, MessagingFee fee) msgReceipt, (uint256 amountSentLD, uint256 amountReceivedLD) oftReceipt)',
]);

/** An OFT send from the EVM rollup to another member, signed by viem; answers the Ethereum tx hash. */
export async function sendOft(devnet: Devnet, input: { toChainId: string; amount: bigint }): Promise<Hex> {
  const rollup = devnet.rollups.find((c) => c.vm === 'evm')!;
  const members = (
    devnet.manifest().services.omnichain as { members: Array<{ chain_id: string; eid: number; oft: Hex }> }
  ).members;
  const source = members.find((m) => m.chain_id === rollup.chain.info.chainId)!;
  const target = members.find((m) => m.chain_id === input.toChainId)!;
  const chain = defineChain({
    id: rollup.chain.info.evmChainId!,
    name: 'rollup',
    nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [rollup.urls.jsonRpc!] } },
  });
  const sender = rollup.accounts[0]!;
  const publicClient = createPublicClient({ chain, transport: http() });
  const wallet = createWalletClient({
    chain,
    transport: http(),
    account: privateKeyToAccount(sender.privateKey as Hex),
  });
  const sendParam = {
    dstEid: target.eid,
    to: pad(sender.hexAddress as Hex, { size: 32 }),
    amountLD: input.amount,
    minAmountLD: input.amount,
    extraOptions: '0x' as Hex,
    composeMsg: '0x' as Hex,
    oftCmd: '0x' as Hex,
  };
  const fee = await publicClient.readContract({
    address: source.oft,
    abi: OFT_ABI,
    functionName: 'quoteSend',
    args: [sendParam, false],
  });
  const hash = await wallet.writeContract({
    address: source.oft,
    abi: OFT_ABI,
    functionName: 'send',
    args: [sendParam, fee, sender.hexAddress as Hex],
    value: fee.nativeFee,
  });
  await publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

export const control = (devnet: Devnet, method: string, params: unknown[]) =>
  callControl(devnet.control.url, method, params);

/**
 * A two-hop IBC forward of 700 umin, weft-move-1 → weft-l1-1 → weft-cosmos-1: the L1's packet-forward
 * middleware sends it on over its channel-3. Answers the source tx's hash.
 */
export async function sendForward(devnet: Devnet): Promise<string> {
  const move = devnet.rollups.find((r) => r.vm === 'move')!;
  const cosmos = devnet.external.cosmos!;
  const l1 = devnet.l1! as unknown as IbcTestChain;
  return sendTransfer(move as unknown as IbcTestChain, move.accounts[0]!, {
    sourceChannel: 'channel-0',
    token: { denom: 'umin', amount: '700' },
    receiver: 'pfm',
    timeoutTimestamp: latestTimeNs(l1.chain) + 600_000_000_000n,
    memo: JSON.stringify({
      forward: {
        receiver: cosmos.accounts[0]!.address,
        port: 'transfer',
        channel: 'channel-3',
        timeout: '10m',
        retries: 0,
      },
    }),
  });
}
