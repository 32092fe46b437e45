import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, type Hex, http, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { captureRecords } from 'weft/indexer/test-support/logger.js';
import { localDenom } from 'weft/protocol/ics20.js';
import type { Devnet, DevnetChain, ExternalCosmosChain } from 'weft-devnet/devnet.js';
import { intermediateReceiver } from 'weft-devnet/ibc/forward/middleware.js';
import { MSG_TRANSFER } from 'weft-devnet/ibc/transfer/module.js';
import type { ChainJson } from 'weft-devnet/registry/types.js';
import { callControl } from 'weft-devnet/test-support/control.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import { signTx } from 'weft-devnet/tx/sign.js';
import { balanceOf, circulating, type IbcTestChain, latestTimeNs, sendTransfer } from './ibc-support.js';
import { waitFor } from './indexer-support.js';

/**
 * ICS-20 in the full network: the L1 has a transfer channel to each rollup (channel-0 evm, channel-1
 * move, channel-2 wasm) and to the external Cosmos chain (channel-3); each of those has channel-0 to the
 * L1. Users sign `MsgTransfer` with cosmjs (direct signing) and broadcast through CometBFT RPC; the
 * network's `ibc` relayer carries the packets, and is paused through the control surface. After each case
 * the balances are as expected, every escrow backs the vouchers minted against it, and what circulates of
 * every asset across the chains is what it was. A second network runs the seeded IBC traffic.
 */

const ERC20_ABI = parseAbi(['function balanceOf(address) view returns (uint256)']);
const TEN_MINUTES_NS = 600_000_000_000n;

const dir = mkdtempSync(join(tmpdir(), 'weft-network-ibc-'));
let devnet: Devnet;
let l1: DevnetChain;
let evm: DevnetChain;
let move: DevnetChain;
let wasm: DevnetChain;
let cosmos: ExternalCosmosChain;
let start: Record<string, string>;

// The IBC test helpers read only a chain's state and its node surfaces, which every chain here has.
const ibc = (chain: DevnetChain | ExternalCosmosChain) => chain as unknown as IbcTestChain;
const supplyOf = () => circulating([...devnet.chains, cosmos].map(ibc));

const control = (method: string, params: unknown[]) => callControl(devnet.manifest().control, method, params);

async function txSearch(chain: DevnetChain | ExternalCosmosChain, query: string) {
  const url = `${chain.urls.rpc}/tx_search?query=${encodeURIComponent(`"${query}"`)}`;
  const body = (await (await fetch(url)).json()) as { result: { total_count: string } };
  return Number(body.result.total_count);
}

async function restTxs(chain: DevnetChain | ExternalCosmosChain, query: string) {
  const url = `${chain.urls.rest}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}`;
  return Number(((await (await fetch(url)).json()) as { total: string }).total);
}

const rest = async <T>(chain: DevnetChain | ExternalCosmosChain, path: string) =>
  (await (await fetch(`${chain.urls.rest}${path}`)).json()) as T;

const balance = (chain: DevnetChain | ExternalCosmosChain, address: string, denom: string) =>
  balanceOf(ibc(chain), address, denom);

/** What a channel's escrow holds of `denom`, read through REST as a client would. */
async function escrowed(chain: DevnetChain | ExternalCosmosChain, channel: string, denom: string) {
  const { escrow_address } = await rest<{ escrow_address: string }>(
    chain,
    `/ibc/apps/transfer/v1/channels/${channel}/ports/transfer/escrow_address`,
  );
  return balance(chain, escrow_address, denom);
}

async function supply(chain: DevnetChain | ExternalCosmosChain, denom: string) {
  const body = await rest<{ amount: { amount: string } }>(
    chain,
    `/cosmos/bank/v1beta1/supply/by_denom?denom=${encodeURIComponent(denom)}`,
  );
  return BigInt(body.amount.amount);
}

const fee = (chain: DevnetChain) => BigInt(Math.ceil(400_000 * chain.chain.info.minGasPrice));
const inFuture = (chain: DevnetChain | ExternalCosmosChain) => latestTimeNs(chain.chain) + TEN_MINUTES_NS;

/** Nothing in flight on a channel: its packet commitments are all acknowledged or timed out. */
async function settled(chain: DevnetChain | ExternalCosmosChain, channel: string) {
  const body = await rest<{ commitments: unknown[] }>(
    chain,
    `/ibc/core/channel/v1/channels/${channel}/ports/transfer/packet_commitments`,
  );
  return body.commitments.length === 0;
}

// uinit of the L1 as each rollup names it: every rollup's channel-0 leads to the L1.
const UINIT_ON_ROLLUP = localDenom('transfer/channel-0/uinit');

describe('ICS-20 in the full network', () => {
  beforeAll(async () => {
    devnet = await testDevnet({
      seed: 'network-ibc',
      vms: ['evm', 'move', 'wasm'],
      network: 'full',
      accounts: 3,
      txsPerBlock: 0,
      blockTimeMs: 200,
      registryDir: join(dir, 'registry'),
    });
    l1 = devnet.l1!;
    const rollup = (vm: string) => devnet.rollups.find((c) => c.vm === vm)!;
    evm = rollup('evm');
    move = rollup('move');
    wasm = rollup('wasm');
    cosmos = devnet.external.cosmos!;
    devnet.run();
    await waitFor('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
    start = await supplyOf();
  }, 120_000);

  afterAll(async () => {
    await devnet?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('opens deterministic channels and writes them to the manifest and the registry', async () => {
    const links = (
      devnet.manifest().services.ibc as {
        links: Array<Record<string, { chain_id: string; channel_id: string }>>;
      }
    ).links;
    expect(
      links.map((l) => [
        l.chain_1!.chain_id,
        l.chain_1!.channel_id,
        l.chain_2!.chain_id,
        l.chain_2!.channel_id,
      ]),
    ).toEqual([
      ['weft-l1-1', 'channel-0', 'weft-evm-1', 'channel-0'],
      ['weft-l1-1', 'channel-1', 'weft-move-1', 'channel-0'],
      ['weft-l1-1', 'channel-2', 'weft-wasm-1', 'channel-0'],
      ['weft-l1-1', 'channel-3', 'weft-cosmos-1', 'channel-0'],
      // ICS-721: the L1's nft-transfer module to the Move rollup's and to the Wasm rollup's ics721 contract.
      ['weft-l1-1', 'channel-4', 'weft-move-1', 'channel-1'],
      ['weft-l1-1', 'channel-5', 'weft-wasm-1', 'channel-1'],
    ]);
    const relayers = (await control('weft_relayers', [])) as Array<{ name: string }>;
    expect(relayers.map((r) => r.name)).toContain('ibc');

    const registry = join(dir, 'registry');
    expect(readdirSync(join(registry, '_IBC')).sort()).toEqual([
      'cosmoshub-initia.json',
      'initia-weftevm.json',
      'initia-weftmove.json',
      'initia-weftwasm.json',
    ]);
    const pair = JSON.parse(readFileSync(join(registry, '_IBC', 'cosmoshub-initia.json'), 'utf8'));
    expect(pair).toMatchObject({
      chain_1: { chain_name: 'cosmoshub', client_id: '07-tendermint-0', connection_id: 'connection-0' },
      chain_2: { chain_name: 'initia', client_id: '07-tendermint-3', connection_id: 'connection-3' },
      channels: [
        {
          chain_1: { channel_id: 'channel-0', port_id: 'transfer' },
          chain_2: { channel_id: 'channel-3', port_id: 'transfer' },
          ordering: 'unordered',
          version: 'ics20-1',
        },
      ],
    });
    const l1Entry = JSON.parse(readFileSync(join(registry, 'initia', 'chain.json'), 'utf8')) as ChainJson;
    expect(l1Entry.metadata.ibc_channels).toEqual([
      { chain_id: 'weft-evm-1', port_id: 'transfer', channel_id: 'channel-0', version: 'ics20-1' },
      { chain_id: 'weft-move-1', port_id: 'transfer', channel_id: 'channel-1', version: 'ics20-1' },
      { chain_id: 'weft-wasm-1', port_id: 'transfer', channel_id: 'channel-2', version: 'ics20-1' },
      { chain_id: 'weft-cosmos-1', port_id: 'transfer', channel_id: 'channel-3', version: 'ics20-1' },
      { chain_id: 'weft-move-1', port_id: 'nft-transfer', channel_id: 'channel-4', version: 'ics721-1' },
      { chain_id: 'weft-wasm-1', port_id: 'nft-transfer', channel_id: 'channel-5', version: 'ics721-1' },
    ]);
    const wasmEntry = JSON.parse(readFileSync(join(registry, 'weftwasm', 'chain.json'), 'utf8')) as ChainJson;
    expect(wasmEntry.metadata.ibc_channels?.[1]).toMatchObject({
      chain_id: 'weft-l1-1',
      port_id: expect.stringMatching(/^wasm\.init1[0-9a-z]{58}$/),
      channel_id: 'channel-1',
      version: 'ics721-1',
    });
    const assets = JSON.parse(readFileSync(join(registry, 'weftmove', 'assetlist.json'), 'utf8')) as {
      assets: Array<{ base: string; traces?: Array<{ chain: { path: string } }> }>;
    };
    expect(assets.assets.find((a) => a.base === UINIT_ON_ROLLUP)?.traces?.[0]?.chain.path).toBe(
      'transfer/channel-0/uinit',
    );
  });

  it('L1 → move rollup and back: the voucher burns, the escrow releases', async () => {
    const user = l1.accounts[0]!;
    const receiver = move.accounts[1]!.address;
    const before = await balance(l1, user.address, 'uinit');
    await sendTransfer(ibc(l1), user, {
      sourceChannel: 'channel-1',
      token: { denom: 'uinit', amount: '1000' },
      receiver,
      timeoutTimestamp: inFuture(move),
    });
    await waitFor(
      'voucher on the rollup',
      async () => (await balance(move, receiver, UINIT_ON_ROLLUP)) === 1000n,
    );
    await waitFor('ack on the L1', () => settled(l1, 'channel-1'));
    expect(await balance(l1, user.address, 'uinit')).toBe(before - 1000n - fee(l1));
    expect(await escrowed(l1, 'channel-1', 'uinit')).toBe(1000n);
    expect(await supply(move, UINIT_ON_ROLLUP)).toBe(1000n);
    expect(
      await txSearch(l1, "send_packet.packet_src_channel='channel-1' AND send_packet.packet_sequence='1'"),
    ).toBe(1);
    expect(await txSearch(move, `denomination_trace.denom='${UINIT_ON_ROLLUP}'`)).toBe(1);
    expect(await restTxs(move, "write_acknowledgement.packet_dst_channel='channel-0'")).toBe(1);
    expect(await restTxs(l1, "acknowledge_packet.packet_src_channel='channel-1'")).toBe(1);

    // Back home: the rollup user signs with cosmjs too.
    const home = l1.accounts[2]!.address;
    const homeBefore = await balance(l1, home, 'uinit');
    await sendTransfer(ibc(move), move.accounts[1]!, {
      sourceChannel: 'channel-0',
      token: { denom: UINIT_ON_ROLLUP, amount: '400' },
      receiver: home,
      timeoutHeight: { revisionNumber: 1n, revisionHeight: BigInt(l1.chain.latestHeight() + 100) },
    });
    await waitFor('escrow released', async () => (await balance(l1, home, 'uinit')) === homeBefore + 400n);
    await waitFor('ack on the rollup', () => settled(move, 'channel-0'));
    expect(await balance(move, receiver, UINIT_ON_ROLLUP)).toBe(600n);
    expect(await escrowed(l1, 'channel-1', 'uinit')).toBe(600n);
    expect(await supply(move, UINIT_ON_ROLLUP)).toBe(600n);
    expect(await txSearch(move, `burn.amount='400${UINIT_ON_ROLLUP}'`)).toBe(1);
    expect(await restTxs(l1, "recv_packet.packet_dst_channel='channel-1'")).toBe(1);
    expect(await supplyOf()).toEqual(start);
  }, 60_000);

  it('the EVM rollup gets the voucher as an ERC20, and burns it sending it back', async () => {
    const user = l1.accounts[1]!;
    const holder = evm.accounts[0]!;
    await sendTransfer(ibc(l1), user, {
      sourceChannel: 'channel-0',
      token: { denom: 'uinit', amount: '500' },
      receiver: holder.address,
      timeoutTimestamp: inFuture(evm),
    });
    await waitFor(
      'voucher on the EVM rollup',
      async () => (await balance(evm, holder.address, UINIT_ON_ROLLUP)) === 500n,
    );
    const { address } = await rest<{ address: Hex }>(
      evm,
      `/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(UINIT_ON_ROLLUP)}`,
    );
    const client = createPublicClient({ transport: http(evm.urls.jsonRpc!) });
    const erc20 = () =>
      client.readContract({
        address,
        abi: ERC20_ABI,
        functionName: 'balanceOf',
        args: [holder.hexAddress as Hex],
      });
    expect(await erc20()).toBe(500n);
    expect(await txSearch(evm, `erc20_created.denom='${UINIT_ON_ROLLUP}'`)).toBe(1);

    // An ethsecp256k1 account signs as the Initia wallets do for the EVM rollup.
    const receiver = l1.accounts[2]!.address;
    const before = await balance(l1, receiver, 'uinit');
    const account = evm.chain.account(holder.address)!;
    const raw = signTx({
      msgs: [
        encodeAny(MSG_TRANSFER, {
          sourcePort: 'transfer',
          sourceChannel: 'channel-0',
          token: { denom: UINIT_ON_ROLLUP, amount: '200' },
          sender: holder.address,
          receiver,
          timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
          timeoutTimestamp: inFuture(l1),
        }),
      ],
      fee: { amount: [{ denom: 'GAS', amount: String(400_000n * 10n ** 9n) }], gasLimit: 400_000n },
      signer: holder,
      chainId: evm.chain.info.chainId,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
    });
    expect((await evm.chain.broadcastTx(raw)).code).toBe(0);
    await waitFor('escrow released', async () => (await balance(l1, receiver, 'uinit')) === before + 200n);
    await waitFor('ack on the EVM rollup', () => settled(evm, 'channel-0'));
    expect(await erc20()).toBe(300n);
    expect(await escrowed(l1, 'channel-0', 'uinit')).toBe(300n);
    expect(await supply(evm, UINIT_ON_ROLLUP)).toBe(300n);
    expect(await supplyOf()).toEqual(start);
  }, 60_000);

  it('rollup → L1 → external Cosmos chain through a forward memo', async () => {
    const user = move.accounts[0]!;
    const receiver = cosmos.accounts[0]!.address;
    const onL1 = localDenom('transfer/channel-1/umin');
    const onCosmos = localDenom('transfer/channel-0/transfer/channel-1/umin');
    const before = await balance(move, user.address, 'umin');
    await sendTransfer(ibc(move), user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '700' },
      receiver: 'pfm',
      timeoutTimestamp: inFuture(l1),
      memo: JSON.stringify({
        forward: { receiver, port: 'transfer', channel: 'channel-3', timeout: '10m', retries: 0 },
      }),
    });
    await waitFor(
      'two-hop voucher on the Cosmos chain',
      async () => (await balance(cosmos, receiver, onCosmos)) === 700n,
    );
    await waitFor('ack back on the rollup', () => settled(move, 'channel-0'));
    await waitFor('ack back on the L1', () => settled(l1, 'channel-3'));
    expect(await balance(move, user.address, 'umin')).toBe(before - 700n - fee(move));
    expect(await escrowed(move, 'channel-0', 'umin')).toBe(700n);
    // The L1 minted its voucher to the forward's intermediate account and escrowed it on toward the Cosmos chain.
    const middle = intermediateReceiver('init', 'channel-1', user.address);
    expect(await balance(l1, middle, onL1)).toBe(0n);
    expect(await escrowed(l1, 'channel-3', onL1)).toBe(700n);
    expect(await supply(l1, onL1)).toBe(700n);
    expect(await supply(cosmos, onCosmos)).toBe(700n);
    expect(await txSearch(l1, `fungible_token_packet.receiver='${middle}'`)).toBe(1);
    expect(await txSearch(l1, "send_packet.packet_src_channel='channel-3'")).toBe(1);
    expect(await txSearch(cosmos, "recv_packet.packet_dst_channel='channel-0'")).toBe(1);
    expect(await restTxs(cosmos, `denomination_trace.denom='${onCosmos}'`)).toBe(1);
    expect(await restTxs(move, "acknowledge_packet.packet_src_channel='channel-0'")).toBe(2);
    expect(await supplyOf()).toEqual(start);
  }, 60_000);

  it('an invalid receiver on the Cosmos chain gets an error ack, and the L1 sender is refunded', async () => {
    const user = l1.accounts[0]!;
    const before = await balance(l1, user.address, 'uinit');
    const escrowBefore = await escrowed(l1, 'channel-3', 'uinit');
    await sendTransfer(ibc(l1), user, {
      sourceChannel: 'channel-3',
      token: { denom: 'uinit', amount: '250' },
      receiver: 'not-a-bech32-address',
      timeoutTimestamp: inFuture(cosmos),
    });
    await waitFor(
      'error ack on the L1',
      async () => (await txSearch(l1, 'fungible_token_packet.error EXISTS')) === 1,
    );
    await waitFor('refund', () => settled(l1, 'channel-3'));
    expect(await balance(l1, user.address, 'uinit')).toBe(before - fee(l1));
    expect(await escrowed(l1, 'channel-3', 'uinit')).toBe(escrowBefore);
    expect(await txSearch(cosmos, "write_acknowledgement.packet_dst_channel='channel-0'")).toBe(2);
    expect(await restTxs(l1, 'fungible_token_packet.error EXISTS')).toBe(1);
    expect(await supplyOf()).toEqual(start);
  }, 60_000);

  it('a packet held back by the paused relayer times out and is refunded', async () => {
    const user = l1.accounts[1]!;
    const receiver = wasm.accounts[0]!.address;
    const before = await balance(l1, user.address, 'uinit');
    expect(await control('weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    const timeout = latestTimeNs(wasm.chain) + 2_000_000_000n;
    await sendTransfer(ibc(l1), user, {
      sourceChannel: 'channel-2',
      token: { denom: 'uinit', amount: '300' },
      receiver,
      timeoutTimestamp: timeout,
    });
    await waitFor('the timeout passes on the rollup', async () => latestTimeNs(wasm.chain) > timeout);
    await waitFor('a few more blocks', async () => latestTimeNs(wasm.chain) > timeout + 1_000_000_000n);
    expect(await balance(l1, user.address, 'uinit')).toBe(before - 300n - fee(l1));
    expect(await escrowed(l1, 'channel-2', 'uinit')).toBe(300n);
    expect(await balance(wasm, receiver, UINIT_ON_ROLLUP)).toBe(0n);
    expect(await control('weft_resumeRelayer', ['ibc'])).toMatchObject({ paused: false });
    await waitFor('refund', async () => (await balance(l1, user.address, 'uinit')) === before - fee(l1));
    expect(await settled(l1, 'channel-2')).toBe(true);
    expect(await escrowed(l1, 'channel-2', 'uinit')).toBe(0n);
    expect(await balance(wasm, receiver, UINIT_ON_ROLLUP)).toBe(0n);
    expect(await txSearch(l1, "timeout_packet.packet_src_channel='channel-2'")).toBe(1);
    expect(await restTxs(l1, "timeout.refund_amount='300'")).toBe(1);
    expect(await supplyOf()).toEqual(start);
  }, 60_000);
});

describe('seeded IBC traffic in the full network', () => {
  it('sends transfers both ways on every link, some failing, each relayed, refunded or timed out', async () => {
    const { logger, records } = captureRecords('info');
    const network = await testDevnet({
      logger,
      seed: 'network-ibc-traffic',
      vms: ['move'],
      network: 'full',
      accounts: 4,
      txsPerBlock: 10,
    });
    try {
      await network.fastForward(40);
      const [rollup, hub, cosmosHub] = [network.rollups[0]!, network.l1!, network.external.cosmos!];
      const count = (chain: DevnetChain | ExternalCosmosChain, query: string) => txSearch(chain, query);
      for (const chain of [rollup, hub, cosmosHub]) {
        expect(
          await count(chain, 'send_packet.packet_sequence EXISTS'),
          chain.chain.info.chainId,
        ).toBeGreaterThan(0);
        expect(
          await count(chain, 'recv_packet.packet_sequence EXISTS'),
          chain.chain.info.chainId,
        ).toBeGreaterThan(0);
        expect(
          await count(chain, 'acknowledge_packet.packet_sequence EXISTS'),
          chain.chain.info.chainId,
        ).toBeGreaterThan(0);
      }
      // The L1 sends on both of its channels, and failures come back as error acks and timeouts.
      expect(await count(hub, "send_packet.packet_src_channel='channel-0'")).toBeGreaterThan(0);
      expect(await count(hub, "send_packet.packet_src_channel='channel-1'")).toBeGreaterThan(0);
      const failures = async (query: string) =>
        (await Promise.all([rollup, hub, cosmosHub].map((c) => count(c, query)))).reduce((a, b) => a + b, 0);
      expect(await failures('fungible_token_packet.error EXISTS')).toBeGreaterThan(0);
      expect(await failures('timeout_packet.packet_sequence EXISTS')).toBeGreaterThan(0);
      // The relayer and the traffic sign with different accounts: neither refuses the other's sequence.
      expect(records.filter((r) => /rejected|refused/.test(String(r.msg)))).toEqual([]);
    } finally {
      await network.close();
    }
  }, 120_000);
});
