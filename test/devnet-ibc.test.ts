import { RESTClient } from '@initia/initia.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { localDenom } from 'weft/protocol/ics20.js';
import { intermediateReceiver } from 'weft-devnet/ibc/forward/middleware.js';
import { buildNftRecvPacket } from 'weft-devnet/ibc/packet.js';
import { MSG_TRANSFER } from 'weft-devnet/ibc/transfer/module.js';
import { createIbcRelayer, type IbcRelayer } from 'weft-devnet/relayers/ibc.js';
import { signTx } from 'weft-devnet/tx/sign.js';
import {
  balanceOf,
  circulating,
  type IbcTestChain,
  ibcChain,
  latestTimeNs,
  sendTransfer,
} from './ibc-support.js';

/**
 * ICS-20 between three chains: A (move) ↔ B (wasm) on channel-0 ↔ channel-0, B ↔ C (evm) on channel-1 ↔
 * channel-0. Users sign `MsgTransfer` with cosmjs and broadcast through CometBFT RPC; the relayer carries
 * packets as signed txs. After each case the balances are as expected and what circulates is conserved.
 */

let a: IbcTestChain;
let b: IbcTestChain;
let c: IbcTestChain;
let relayer: IbcRelayer;
let genesis: Record<string, string>;

const A_TO_B = 'transfer/channel-0/umin'; // umin of A as B names it
const voucherOnB = localDenom(A_TO_B);

beforeAll(async () => {
  a = await ibcChain({
    vm: 'move',
    chainId: 'weft-move-1',
    seed: 'ibc',
    channels: [{ channelId: 'channel-0', counterparty: { chainId: 'weft-wasm-1', channelId: 'channel-0' } }],
  });
  b = await ibcChain({
    vm: 'wasm',
    chainId: 'weft-wasm-1',
    seed: 'ibc',
    channels: [
      { channelId: 'channel-0', counterparty: { chainId: 'weft-move-1', channelId: 'channel-0' } },
      { channelId: 'channel-1', counterparty: { chainId: 'weft-evm-1', channelId: 'channel-0' } },
    ],
  });
  c = await ibcChain({
    vm: 'evm',
    chainId: 'weft-evm-1',
    seed: 'ibc',
    channels: [{ channelId: 'channel-0', counterparty: { chainId: 'weft-wasm-1', channelId: 'channel-1' } }],
  });
  relayer = createIbcRelayer({ chains: [a, b, c].map((x) => ({ chain: x.chain, signer: x.relayer })) });
  await blocks(1);
  genesis = await circulating([a, b, c]);
}, 60_000);

afterAll(async () => {
  await relayer?.stop();
  await Promise.all([a, b, c].map((x) => x?.servers.close()));
});

/** Produces `n` blocks on every chain, letting the relayer act after each. */
async function blocks(n: number, trafficPerBlock = 0) {
  for (let i = 0; i < n; i += 1) {
    for (const x of [a, b, c]) {
      if (trafficPerBlock > 0) await x.traffic.fill(trafficPerBlock);
      x.traffic.observe(await x.chain.produceBlock());
    }
    await relayer.tick();
  }
}

async function txSearch(chain: IbcTestChain, query: string) {
  const url = `${chain.servers.urls.rpc}/tx_search?query=${encodeURIComponent(`"${query}"`)}`;
  const body = (await (await fetch(url)).json()) as {
    result: { total_count: string; txs: Array<{ hash: string }> };
  };
  return body.result;
}

async function restTxs(chain: IbcTestChain, query: string) {
  const url = `${chain.servers.urls.rest}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}`;
  return (await (await fetch(url)).json()) as {
    tx_responses: Array<{ txhash: string; code: number }>;
    total: string;
  };
}

const fee = (chain: IbcTestChain) => BigInt(Math.ceil(400_000 * chain.chain.info.minGasPrice));

describe('ICS-20 transfers between devnet chains', () => {
  it('A → B escrows on A and mints the voucher on B; acks come back', async () => {
    const user = a.accounts[0]!;
    const receiver = b.accounts[1]!.address;
    const before = await balanceOf(a, user.address, 'umin');
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '1000' },
      receiver,
      timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
    });
    await blocks(4);
    expect(await balanceOf(a, user.address, 'umin')).toBe(before - 1000n - fee(a));
    expect(await balanceOf(b, receiver, voucherOnB)).toBe(1000n);
    const escrow = await (
      await fetch(
        `${a.servers.urls.rest}/ibc/apps/transfer/v1/channels/channel-0/ports/transfer/escrow_address`,
      )
    ).json();
    expect(await balanceOf(a, (escrow as { escrow_address: string }).escrow_address, 'umin')).toBe(1000n);

    // Events on both chains, through RPC and REST.
    const sent = await txSearch(
      a,
      "send_packet.packet_src_channel='channel-0' AND send_packet.packet_sequence='1'",
    );
    expect(sent.total_count).toBe('1');
    expect((await txSearch(a, "ibc_transfer.denom='umin'")).total_count).toBe('1');
    expect(
      (await txSearch(b, "recv_packet.packet_sequence='1' AND recv_packet.packet_dst_channel='channel-0'"))
        .total_count,
    ).toBe('1');
    expect((await txSearch(b, `denomination_trace.denom='${voucherOnB}'`)).total_count).toBe('1');
    expect((await txSearch(b, "fungible_token_packet.success='true'")).total_count).toBe('1');
    expect((await restTxs(b, "write_acknowledgement.packet_sequence='1'")).total).toBe('1');
    expect((await restTxs(a, "acknowledge_packet.packet_sequence='1'")).total).toBe('1');

    // The denom-trace queries.
    const traces = (await (
      await fetch(`${b.servers.urls.rest}/ibc/apps/transfer/v1/denom_traces`)
    ).json()) as {
      denom_traces: Array<{ path: string; base_denom: string }>;
    };
    expect(traces.denom_traces).toEqual([{ path: 'transfer/channel-0', base_denom: 'umin' }]);
    const trace = await (
      await fetch(`${b.servers.urls.rest}/ibc/apps/transfer/v1/denom_traces/${voucherOnB}`)
    ).json();
    expect(trace).toEqual({ denom_trace: { path: 'transfer/channel-0', base_denom: 'umin' } });
    const hash = await (
      await fetch(`${b.servers.urls.rest}/ibc/apps/transfer/v1/denom_hashes/${A_TO_B}`)
    ).json();
    expect(hash).toEqual({ hash: voucherOnB.slice(4) });
    const channels = (await (await fetch(`${b.servers.urls.rest}/ibc/core/channel/v1/channels`)).json()) as {
      channels: Array<{ channel_id: string; counterparty: { channel_id: string } }>;
    };
    expect(channels.channels.map((x) => x.channel_id)).toEqual(['channel-0', 'channel-1']);
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('B → A sends the voucher home: it burns on B and the escrow releases on A', async () => {
    const holder = b.accounts[1]!;
    const receiver = a.accounts[2]!.address;
    const before = await balanceOf(a, receiver, 'umin');
    await sendTransfer(b, holder, {
      sourceChannel: 'channel-0',
      token: { denom: voucherOnB, amount: '400' },
      receiver,
      timeoutHeight: { revisionNumber: 1n, revisionHeight: BigInt(a.chain.latestHeight() + 50) },
    });
    await blocks(4);
    expect(await balanceOf(b, holder.address, voucherOnB)).toBe(600n);
    expect(await balanceOf(a, receiver, 'umin')).toBe(before + 400n);
    expect((await txSearch(b, `burn.amount='400${voucherOnB}'`)).total_count).toBe('1');
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('an invalid receiver gets an error ack, and the sender is refunded', async () => {
    const user = a.accounts[1]!;
    const before = await balanceOf(a, user.address, 'umin');
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '250' },
      receiver: 'cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a',
      timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
    });
    await blocks(4);
    expect(await balanceOf(a, user.address, 'umin')).toBe(before - fee(a));
    const acked = await txSearch(
      b,
      "ibccallbackerror-fungible_token_packet.ibccallbackerror-success='false'",
    );
    expect(acked.total_count).toBe('1');
    expect((await txSearch(a, 'fungible_token_packet.error EXISTS')).total_count).toBe('1');
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('a packet not relayed before its timeout height is timed out and refunded', async () => {
    const user = a.accounts[3]!;
    const before = await balanceOf(a, user.address, 'umin');
    relayer.pause();
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '300' },
      receiver: b.accounts[0]!.address,
      timeoutHeight: { revisionNumber: 1n, revisionHeight: BigInt(b.chain.latestHeight() + 2) },
    });
    await blocks(4);
    expect(await balanceOf(a, user.address, 'umin')).toBe(before - 300n - fee(a));
    relayer.resume();
    await blocks(3);
    expect(await balanceOf(a, user.address, 'umin')).toBe(before - fee(a));
    expect((await txSearch(a, "timeout_packet.packet_src_channel='channel-0'")).total_count).toBe('1');
    expect((await restTxs(a, "timeout.refund_amount='300'")).total).toBe('1');
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('a packet past its timeout timestamp is timed out and refunded', async () => {
    const holder = b.accounts[1]!;
    const before = await balanceOf(b, holder.address, voucherOnB);
    relayer.pause();
    await sendTransfer(b, holder, {
      sourceChannel: 'channel-0',
      token: { denom: voucherOnB, amount: '100' },
      receiver: a.accounts[0]!.address,
      timeoutTimestamp: latestTimeNs(a.chain) + 2_000_000_000n,
    });
    await blocks(4);
    expect(await balanceOf(b, holder.address, voucherOnB)).toBe(before - 100n);
    relayer.resume();
    await blocks(3);
    expect(await balanceOf(b, holder.address, voucherOnB)).toBe(before);
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('A → B → C through a forward memo; the ack reaches A only after C acks', async () => {
    const user = a.accounts[0]!;
    const receiver = c.accounts[0]!.address;
    const onC = localDenom(`transfer/channel-0/${A_TO_B}`);
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '700' },
      receiver: 'pfm',
      timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
      memo: JSON.stringify({
        forward: { receiver, port: 'transfer', channel: 'channel-1', timeout: '10m', retries: 0 },
      }),
    });
    await blocks(1); // A commits the send
    await blocks(1); // B receives and forwards: no ack yet
    const middle = intermediateReceiver('init', 'channel-0', user.address);
    expect((await txSearch(b, `fungible_token_packet.receiver='${middle}'`)).total_count).toBe('1');
    expect(
      (
        await txSearch(
          b,
          "write_acknowledgement.packet_src_channel='channel-0' AND write_acknowledgement.packet_sequence='4'",
        )
      ).total_count,
    ).toBe('0');
    await blocks(6);
    expect(await balanceOf(c, receiver, onC)).toBe(700n);
    expect(await balanceOf(b, middle, voucherOnB)).toBe(0n);
    expect(
      (
        await txSearch(
          b,
          "write_acknowledgement.packet_src_channel='channel-0' AND write_acknowledgement.packet_sequence='4'",
        )
      ).total_count,
    ).toBe('1');
    expect((await txSearch(a, "acknowledge_packet.packet_sequence='4'")).total_count).toBe('1');
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('the EVM rollup sends the two-hop voucher back: its ERC20 burns, B releases the escrow', async () => {
    const holder = c.accounts[0]!;
    const receiver = b.accounts[0]!.address;
    const onC = localDenom(`transfer/channel-0/${A_TO_B}`);
    const before = await balanceOf(b, receiver, voucherOnB);
    const account = c.chain.account(holder.address)!;
    const raw = signTx({
      msgs: [
        encodeAny(MSG_TRANSFER, {
          sourcePort: 'transfer',
          sourceChannel: 'channel-0',
          token: { denom: onC, amount: '200' },
          sender: holder.address,
          receiver,
          timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
          timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
        }),
      ],
      fee: { amount: [{ denom: 'GAS', amount: String(400_000n * 10n ** 9n) }], gasLimit: 400_000n },
      signer: holder,
      chainId: c.chain.info.chainId,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
    });
    expect((await c.chain.submit(raw)).code).toBe(0);
    await blocks(4);
    expect(await balanceOf(c, holder.address, onC)).toBe(500n);
    expect(await balanceOf(b, receiver, voucherOnB)).toBe(before + 200n);
    expect((await txSearch(c, `burn.amount='200${onC}'`)).total_count).toBe('1');
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('a forward refused by the last hop refunds down the path', async () => {
    const user = a.accounts[1]!;
    const before = await balanceOf(a, user.address, 'umin');
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '500' },
      receiver: 'pfm',
      timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
      memo: JSON.stringify({
        forward: { receiver: 'not-an-address', port: 'transfer', channel: 'channel-1', retries: 0 },
      }),
    });
    await blocks(8);
    expect(await balanceOf(a, user.address, 'umin')).toBe(before - fee(a));
    expect((await txSearch(a, 'fungible_token_packet.error EXISTS')).total_count).toBe('2');
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('a forward that times out is retried by the middle chain and then delivered', async () => {
    const user = a.accounts[2]!;
    const receiver = c.accounts[2]!.address;
    const onC = localDenom(`transfer/channel-0/${A_TO_B}`);
    const before = await balanceOf(c, receiver, onC);
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '60' },
      receiver: 'pfm',
      timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
      memo: JSON.stringify({
        forward: { receiver, port: 'transfer', channel: 'channel-1', timeout: '5s', retries: 1 },
      }),
    });
    await blocks(1); // A commits the send; the relayer hands it to B
    relayer.pause();
    await blocks(10); // B forwards; nothing reaches C before the forward's timeout
    relayer.resume();
    await blocks(8);
    expect(await balanceOf(c, receiver, onC)).toBe(before + 60n);
    expect((await txSearch(b, "timeout_packet.packet_src_channel='channel-1'")).total_count).toBe('1');
    expect((await txSearch(b, "send_packet.packet_src_channel='channel-1'")).total_count).toBe('4');
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('relays only after its delay', async () => {
    const user = a.accounts[3]!;
    const receiver = b.accounts[3]!.address;
    const before = await balanceOf(b, receiver, voucherOnB);
    relayer.setDelay(1500);
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '11' },
      receiver,
      timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
    });
    await blocks(3);
    expect(await balanceOf(b, receiver, voucherOnB)).toBe(before);
    expect(relayer.status()).toMatchObject({ paused: false, delayMs: 1500, pending: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await blocks(2);
    expect(await balanceOf(b, receiver, voucherOnB)).toBe(before + 11n);
    relayer.setDelay(0);
    await blocks(3);
    expect(relayer.status().pending).toBe(0);
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('ICS-721 receives still reach their module through IBC core', async () => {
    const signer = a.accounts[1]!;
    const account = a.chain.account(signer.address)!;
    const raw = signTx({
      msgs: [
        buildNftRecvPacket({
          signer: signer.address,
          sequence: 1n,
          sourceChannel: 'channel-9',
          destinationChannel: 'channel-0',
          data: { classId: 'cats', tokenIds: ['1'], sender: signer.address, receiver: signer.address },
        }),
      ],
      fee: { amount: [{ denom: 'umin', amount: String(fee(a)) }], gasLimit: 400_000n },
      signer,
      chainId: a.chain.info.chainId,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
    });
    expect((await a.chain.submit(raw)).code).toBe(0);
    await blocks(1);
    const found = await txSearch(
      a,
      "recv_packet.packet_dst_port='nft-transfer' AND non_fungible_token_packet.success='true'",
    );
    expect(found.total_count).toBe('1');
  });

  it('@initia/initia.js reads the channels, connections and denom traces', async () => {
    const rest = new RESTClient(b.servers.urls.rest, { chainId: b.chain.info.chainId });
    const [channels] = await rest.ibc.channels();
    expect(channels.map((x) => [x.channel_id, x.counterparty?.channel_id, x.connection_hops[0]])).toEqual([
      ['channel-0', 'channel-0', 'connection-0'],
      ['channel-1', 'channel-0', 'connection-1'],
    ]);
    const [connections] = await rest.ibc.connections();
    expect(connections.map((x) => [x.id, x.client_id, x.counterparty?.connection_id])).toEqual([
      ['connection-0', '07-tendermint-0', 'connection-0'],
      ['connection-1', '07-tendermint-1', 'connection-0'],
    ]);
    const [traces] = await rest.ibcTransfer.denomTraces();
    expect(traces.map((t) => `${t.path}/${t.base_denom}`)).toEqual([A_TO_B]);
    expect((await rest.ibcTransfer.denomTrace(voucherOnB.slice(4))).path).toBe('transfer/channel-0');
    expect(await rest.ibcTransfer.denomHash(A_TO_B)).toBe(voucherOnB.slice(4));
    expect(await rest.ibcTransfer.escrowAddress('channel-1', 'transfer')).toMatch(/^init1/);
    const sent = await rest.tx.search({
      query: [{ key: 'send_packet.packet_src_channel', value: 'channel-1' }],
    });
    expect(sent.txs.length).toBe(4);
  });

  it('finds packets sent before it started, and polls on its own', async () => {
    const user = a.accounts[0]!;
    const receiver = b.accounts[2]!.address;
    const before = await balanceOf(b, receiver, voucherOnB);
    await sendTransfer(a, user, {
      sourceChannel: 'channel-0',
      token: { denom: 'umin', amount: '9' },
      receiver,
      timeoutTimestamp: latestTimeNs(b.chain) + 600_000_000_000n,
    });
    relayer.pause();
    await blocks(1);
    // A relayer started after the send finds it among the stored blocks, as one restarted would.
    const standalone = createIbcRelayer({
      chains: [a, b, c].map((x) => ({ chain: x.chain, signer: x.relayer })),
      pollMs: 20,
    });
    standalone.start();
    try {
      for (let i = 0; i < 20 && (await balanceOf(b, receiver, voucherOnB)) === before; i += 1) {
        for (const x of [a, b, c]) await x.chain.produceBlock();
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
    } finally {
      await standalone.stop();
      relayer.resume();
    }
    expect(await balanceOf(b, receiver, voucherOnB)).toBe(before + 9n);
    await blocks(4);
    expect(await circulating([a, b, c])).toEqual(genesis);
  });

  it('seeded traffic sends transfers both ways, some failing, and every packet settles', async () => {
    relayer.setDelay(0);
    await blocks(30, 8);
    await blocks(12);
    expect(relayer.status().pending).toBe(0);
    for (const x of [a, b, c]) {
      for (const channel of ['channel-0', 'channel-1']) {
        expect(x.chain.state().group(`ibc/commitment/transfer/${channel}`)).toEqual([]);
      }
    }
    for (const x of [a, b, c]) {
      expect(
        Number((await txSearch(x, "message.action='/ibc.applications.transfer.v1.MsgTransfer'")).total_count),
      ).toBeGreaterThan(3);
    }
    // The EVM rollup's vouchers are ERC20s minted and burned by the chain.
    expect(Number((await txSearch(c, 'erc20_created.denom EXISTS')).total_count)).toBeGreaterThan(0);
    expect(Number((await txSearch(b, 'timeout_packet.packet_sequence EXISTS')).total_count)).toBeGreaterThan(
      0,
    );
    expect(Number((await txSearch(a, 'fungible_token_packet.error EXISTS')).total_count)).toBeGreaterThan(2);
    expect(Number((await txSearch(b, 'burn.burner EXISTS')).total_count)).toBeGreaterThan(1);
    expect(await circulating([a, b, c])).toEqual(genesis);
  }, 120_000);
});
