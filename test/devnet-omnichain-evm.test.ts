import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  pad,
  parseEventLogs,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePacket } from 'weft/protocol/omnichain.js';
import { omnichainOperator } from 'weft-devnet/omnichain/network.js';
import { ENDPOINT_CLIENT_ABI, OFT_CLIENT_ABI } from 'weft-devnet/test-support/oft-client.js';
import {
  type OmnichainTestChain,
  type OmnichainTestNet,
  omnichainEvmPair,
} from 'weft-devnet/test-support/omnichain.js';
import { until } from 'weft-devnet/test-support/until.js';

/**
 * Acceptance, omnichain bridge between two EVM chains: OFT transfers each way signed by viem wallet clients
 * as a wallet signs them (quoteSend, then send with the fee as value, through eth_sendRawTransaction), a
 * delivery that fails on a paused token and is retried, and a paused relayer; balances and the supply across
 * chains after each, and every LayerZero event found through eth_getLogs.
 */

const OFT_ABI = OFT_CLIENT_ABI;
const ENDPOINT_ABI = ENDPOINT_CLIENT_ABI;
const TOKEN = 10n ** 18n;
const SEED = 'omnichain-evm';

let net: OmnichainTestNet;
let a: OmnichainTestChain;
let b: OmnichainTestChain;
const clients = new Map<OmnichainTestChain, PublicClient>();

const chainOf = (c: OmnichainTestChain) =>
  defineChain({
    id: c.chain.info.evmChainId!,
    name: c.chain.info.chainId,
    nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [c.servers.urls.jsonRpc!] } },
  });
const client = (c: OmnichainTestChain) => clients.get(c)!;
const wallet = (c: OmnichainTestChain, privateKey: string) =>
  createWalletClient({
    chain: chainOf(c),
    transport: http(c.servers.urls.jsonRpc!),
    account: privateKeyToAccount(privateKey as Hex),
  });

const balanceOf = (c: OmnichainTestChain, holder: string) =>
  client(c).readContract({
    address: net.oft,
    abi: OFT_ABI,
    functionName: 'balanceOf',
    args: [holder as Hex],
  });
const supply = async () => {
  const [sa, sb] = await Promise.all(
    [a, b].map((c) =>
      client(c).readContract({ address: net.oft, abi: OFT_ABI, functionName: 'totalSupply' }),
    ),
  );
  return sa! + sb!;
};

/** A wallet's OFT send: quoteSend, then send with the quoted fee as the tx value; returns the guid. */
async function sendOft(
  from: OmnichainTestChain,
  to: OmnichainTestChain,
  signerIndex: number,
  recipient: Hex,
  amount: bigint,
  minAmount = amount,
) {
  const signer = from.accounts[signerIndex]!;
  const sendParam = {
    dstEid: to.member.eid,
    to: pad(recipient, { size: 32 }),
    amountLD: amount,
    minAmountLD: minAmount,
    extraOptions: '0x' as Hex,
    composeMsg: '0x' as Hex,
    oftCmd: '0x' as Hex,
  };
  const fee = await client(from).readContract({
    address: net.oft,
    abi: OFT_ABI,
    functionName: 'quoteSend',
    args: [sendParam, false],
  });
  expect(fee.nativeFee).toBeGreaterThan(0n);
  const hash = await wallet(from, signer.privateKey).writeContract({
    address: net.oft,
    abi: OFT_ABI,
    functionName: 'send',
    args: [sendParam, fee, signer.hexAddress as Hex],
    value: fee.nativeFee,
  });
  const receipt = await client(from).waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  const [sent] = parseEventLogs({ abi: OFT_ABI, eventName: 'OFTSent', logs: receipt.logs });
  const sentLD = amount - (amount % 10n ** 12n);
  expect(sent!.args).toMatchObject({ dstEid: to.member.eid, amountSentLD: sentLD, amountReceivedLD: sentLD });
  return { guid: sent!.args.guid, receipt, fee: fee.nativeFee };
}

/** The LayerZero events of one guid on both chains, through eth_getLogs. */
async function eventsOf(guid: Hex, from: OmnichainTestChain, to: OmnichainTestChain) {
  const logs = async (c: OmnichainTestChain, abi: Abi, address: Hex) =>
    parseEventLogs({
      abi,
      logs: await client(c).getLogs({ address, fromBlock: 1n, toBlock: 'latest' }),
    }) as Array<{
      eventName: string;
      args: Record<string, any>;
      blockNumber: bigint;
    }>;
  const [srcEndpoint, srcOft, dstEndpoint, dstOft] = await Promise.all([
    logs(from, ENDPOINT_ABI, net.endpoint),
    logs(from, OFT_ABI, net.oft),
    logs(to, ENDPOINT_ABI, net.endpoint),
    logs(to, OFT_ABI, net.oft),
  ]);
  const sent = srcEndpoint.filter(
    (e) => e.eventName === 'PacketSent' && decodePacket(e.args.encodedPayload).guid === guid,
  );
  const packet = sent[0] ? decodePacket(sent[0].args.encodedPayload) : undefined;
  const sameOrigin = (e: { args: Record<string, any> }) =>
    packet !== undefined && e.args.origin.srcEid === packet.srcEid && e.args.origin.nonce === packet.nonce;
  return {
    packet,
    packetSent: sent,
    oftSent: srcOft.filter((e) => e.eventName === 'OFTSent' && e.args.guid === guid),
    verified: dstEndpoint.filter((e) => e.eventName === 'PacketVerified' && sameOrigin(e)),
    delivered: dstEndpoint.filter((e) => e.eventName === 'PacketDelivered' && sameOrigin(e)),
    alerts: dstEndpoint.filter((e) => e.eventName === 'LzReceiveAlert' && e.args.guid === guid),
    received: dstOft.filter((e) => e.eventName === 'OFTReceived' && e.args.guid === guid),
  };
}

beforeAll(async () => {
  net = await omnichainEvmPair({ seed: SEED });
  [a, b] = net.chains as [OmnichainTestChain, OmnichainTestChain];
  for (const c of net.chains)
    clients.set(
      c,
      createPublicClient({
        chain: chainOf(c),
        transport: http(c.servers.urls.jsonRpc!),
        pollingInterval: 50,
      }),
    );
}, 120_000);

afterAll(async () => {
  await net?.close();
});

describe('omnichain OFT between two EVM chains', () => {
  it('deploys the endpoint and the OFT at the same address on both chains, with different endpoint ids', async () => {
    expect(a.chain.info.evmChainId).not.toBe(b.chain.info.evmChainId);
    expect(a.member.eid).not.toBe(b.member.eid);
    for (const c of [a, b]) {
      expect(await client(c).getCode({ address: net.endpoint })).not.toBe('0x');
      expect(await balanceOf(c, c.accounts[0]!.hexAddress)).toBe(1_000n * TOKEN);
    }
  });

  it('sends A → B and B → A: burn on send, mint on delivery, every event on chain', async () => {
    const before = await supply();
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const sender = from.accounts[0]!.hexAddress;
      const recipient = to.accounts[1]!.hexAddress as Hex;
      const [senderBefore, recipientBefore] = [await balanceOf(from, sender), await balanceOf(to, recipient)];
      const amount = 12n * TOKEN + 345_678n * 10n ** 12n;
      const { guid } = await sendOft(from, to, 0, recipient, amount);
      const destinationAtSend = BigInt(to.chain.latestHeight());
      expect(await balanceOf(from, sender)).toBe(senderBefore - amount);
      await until('delivery', async () => (await balanceOf(to, recipient)) === recipientBefore + amount);
      expect(await supply()).toBe(before);
      const events = await until('events', async () => {
        const e = await eventsOf(guid, from, to);
        return e.received.length === 1 ? e : undefined;
      });
      expect(events.packetSent).toHaveLength(1);
      expect(events.oftSent).toHaveLength(1);
      expect(events.packet).toMatchObject({ srcEid: from.member.eid, dstEid: to.member.eid });
      expect(events.verified).toHaveLength(1);
      expect(events.delivered).toHaveLength(1);
      // The relayer reads the source's head as it is (not a cached one), so it delivers within a few blocks.
      expect(events.delivered[0]!.blockNumber - destinationAtSend).toBeLessThanOrEqual(10n);
      expect(events.alerts).toHaveLength(0);
      expect(events.received[0]!.args).toMatchObject({ srcEid: from.member.eid, amountReceivedLD: amount });
      expect(events.received[0]!.args.toAddress.toLowerCase()).toBe(recipient.toLowerCase());
    }
  });

  it('drops dust below the shared decimals and refuses a fee below the quote', async () => {
    const signer = a.accounts[2]!;
    const sendParam = {
      dstEid: b.member.eid,
      to: pad(signer.hexAddress as Hex, { size: 32 }),
      amountLD: TOKEN + 1n,
      minAmountLD: TOKEN,
      extraOptions: '0x' as Hex,
      composeMsg: '0x' as Hex,
      oftCmd: '0x' as Hex,
    };
    const fee = await client(a).readContract({
      address: net.oft,
      abi: OFT_ABI,
      functionName: 'quoteSend',
      args: [sendParam, false],
    });
    await expect(
      client(a).simulateContract({
        account: signer.hexAddress as Hex,
        address: net.oft,
        abi: OFT_ABI,
        functionName: 'send',
        args: [sendParam, { nativeFee: fee.nativeFee - 1n, lzTokenFee: 0n }, signer.hexAddress as Hex],
        value: fee.nativeFee - 1n,
      }),
    ).rejects.toThrow();
    const { guid } = await sendOft(a, b, 2, signer.hexAddress as Hex, TOKEN + 1n, TOKEN);
    const events = await until('delivery', async () => {
      const e = await eventsOf(guid, a, b);
      return e.received.length === 1 ? e : undefined;
    });
    expect(events.oftSent[0]!.args.amountSentLD).toBe(TOKEN);
    expect(events.received[0]!.args.amountReceivedLD).toBe(TOKEN);
  });

  it('keeps a delivery that fails on a paused token verified, alerts, and delivers it on retry', async () => {
    const operator = omnichainOperator(SEED, 'ethsecp256k1', 'init');
    const admin = wallet(b, operator.privateKey);
    const pause = async (paused: boolean) => {
      const hash = await admin.writeContract({
        address: net.oft,
        abi: OFT_ABI,
        functionName: 'setPaused',
        args: [paused],
      });
      expect((await client(b).waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    const before = await supply();
    const recipient = b.accounts[3]!.hexAddress as Hex;
    const recipientBefore = await balanceOf(b, recipient);
    await pause(true);
    const amount = 5n * TOKEN;
    const { guid } = await sendOft(a, b, 1, recipient, amount);
    const failed = await until('failed delivery', () =>
      net.relayer.packets().find((p) => p.packet.guid === guid && p.state === 'failed'),
    );
    expect(failed.attempts).toBe(1);
    const alerted = await eventsOf(guid, a, b);
    expect(alerted.alerts).toHaveLength(1);
    expect(alerted.delivered).toHaveLength(0);
    expect(alerted.verified).toHaveLength(1);
    // The revert reason is the token's `Paused()` error.
    expect(alerted.alerts[0]!.args.reason).toBe('0x9e87fac8');
    expect(await balanceOf(b, recipient)).toBe(recipientBefore);
    // In flight: burnt on A, not yet minted on B.
    expect(await supply()).toBe(before - amount);

    await pause(false);
    expect(net.relayer.retry(guid)).toBe(1);
    await until('retried delivery', async () => (await balanceOf(b, recipient)) === recipientBefore + amount);
    expect(await supply()).toBe(before);
    const events = await eventsOf(guid, a, b);
    expect(events.delivered).toHaveLength(1);
    expect(events.received).toHaveLength(1);
    expect(events.alerts).toHaveLength(1);
    // The relayer records the outcome once the delivery's receipt is in, which may be a moment after.
    const tracked = await until('delivered state', () =>
      net.relayer.packets().find((p) => p.packet.guid === guid && p.state === 'delivered'),
    );
    expect(tracked.attempts).toBe(2);
  });

  it('verifies nothing while the relayer is paused, and honours its delay once resumed', async () => {
    net.relayer.pause();
    const recipient = a.accounts[2]!.hexAddress as Hex;
    const recipientBefore = await balanceOf(a, recipient);
    const { guid } = await sendOft(b, a, 2, recipient, TOKEN);
    const height = a.chain.latestHeight();
    await until('blocks', () => a.chain.latestHeight() >= height + 5);
    expect((await eventsOf(guid, b, a)).verified).toHaveLength(0);
    net.relayer.setDelay(1_000);
    net.relayer.resume();
    const seen = await until('seen', () => net.relayer.packets().find((p) => p.packet.guid === guid));
    await until('delivery', async () => (await balanceOf(a, recipient)) === recipientBefore + TOKEN);
    const verifiedAt = Date.now();
    expect(verifiedAt - seen.seenAt).toBeGreaterThanOrEqual(1_000);
    net.relayer.setDelay(0);
  });
});
