import { createHash } from 'node:crypto';
import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { MsgRecvPacketResponse, MsgTimeoutResponse } from '@initia/initia.proto/ibc/core/channel/v1/tx.js';
import { describe, expect, it } from 'vitest';
import { toBech32 } from 'weft/chain/address.js';
import { encodeAny } from 'weft/chain/registry.js';
import { createStoreBank } from '../../bank/store-bank.js';
import { moduleAddressBytes } from '../../rollup.js';
import { createAuth } from '../../state/auth.js';
import { createStateStore } from '../../state/store.js';
import { runMsg, testTxContext } from '../../test-support/move-test-context.js';
import { TxError } from '../../types.js';
import { createTransferKeeper } from '../transfer/keeper.js';
import { createTransferMsgModule, MSG_TRANSFER } from '../transfer/module.js';
import { createIbcCore, MSG_ACKNOWLEDGEMENT, MSG_RECV_PACKET, MSG_TIMEOUT } from './module.js';
import { ibcKeys, packetCommitment, putChannel } from './store.js';

const user = toBech32('init', new Uint8Array(20).fill(0x11));
const relayer = toBech32('init', new Uint8Array(20).fill(0x22));

/** One chain with transfer on channel-0 to `weft-wasm-1`'s channel-5, and a funded user. */
async function setup(chainId = 'weft-move-1') {
  const store = createStateStore();
  const auth = createAuth({ prefix: 'init', moduleAddress: moduleAddressBytes });
  const bank = createStoreBank();
  const core = createIbcCore();
  const keeper = createTransferKeeper({ core, bank, auth, prefix: 'init' });
  putChannel(store, {
    portId: 'transfer',
    channelId: 'channel-0',
    state: 'STATE_OPEN',
    ordering: 'ORDER_UNORDERED',
    counterparty: { portId: 'transfer', channelId: 'channel-5' },
    connectionHops: ['connection-0'],
    version: 'ics20-1',
    clientId: '07-tendermint-0',
    counterpartyChainId: 'weft-wasm-1',
  });
  await bank.mint({ ...testTxContext(store, { vm: 'move', chainId }), events: [] }, user, [
    { denom: 'umin', amount: '1000' },
  ]);
  store.commitBlock(1);
  let height = 1;
  const run = async (msg: { typeUrl: string; value: Uint8Array }, signer = relayer) => {
    height += 1;
    const ctx = testTxContext(store, { vm: 'move', chainId }, { height, signers: [signer] });
    try {
      const module = msg.typeUrl === MSG_TRANSFER ? createTransferMsgModule(keeper) : core.module;
      return { response: await runMsg(module, ctx, msg), events: ctx.events };
    } finally {
      store.commitBlock(height);
    }
  };
  return { store, bank, keeper, run };
}

const transferMsg = (timeoutHeight = 0n, timeoutTimestamp = 4_000_000_000_000_000_000n) =>
  encodeAny(MSG_TRANSFER, {
    sourcePort: 'transfer',
    sourceChannel: 'channel-0',
    token: { denom: 'umin', amount: '100' },
    sender: user,
    receiver: relayer,
    timeoutHeight: { revisionNumber: 1n, revisionHeight: timeoutHeight },
    timeoutTimestamp,
  });

const sentPacket = (
  events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>,
): Packet => {
  const a = Object.fromEntries(
    events.find((e) => e.type === 'send_packet')!.attributes.map((x) => [x.key, x.value]),
  );
  const [rn, rh] = a.packet_timeout_height!.split('-');
  return {
    sequence: BigInt(a.packet_sequence!),
    sourcePort: a.packet_src_port!,
    sourceChannel: a.packet_src_channel!,
    destinationPort: a.packet_dst_port!,
    destinationChannel: a.packet_dst_channel!,
    data: new Uint8Array(Buffer.from(a.packet_data_hex!, 'hex')),
    timeoutHeight: { revisionNumber: BigInt(rn!), revisionHeight: BigInt(rh!) },
    timeoutTimestamp: BigInt(a.packet_timeout_timestamp!),
  };
};

describe('IBC core packets', () => {
  it('stores the packet commitment ibc-go computes and advances the send sequence', async () => {
    const { store, run } = await setup();
    const { events } = await run(transferMsg(), user);
    const packet = sentPacket(events);
    expect(packet).toMatchObject({
      sequence: 1n,
      destinationPort: 'transfer',
      destinationChannel: 'channel-5',
    });
    const be = (n: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64BE(n);
      return b;
    };
    const dataHash = createHash('sha256').update(packet.data).digest();
    const expected = createHash('sha256')
      .update(Buffer.concat([be(packet.timeoutTimestamp), be(1n), be(0n), dataHash]))
      .digest('hex');
    expect(store.get(ibcKeys.commitment('transfer', 'channel-0', 1n))).toBe(expected);
    expect(packetCommitment(packet)).toBe(expected);
    expect(store.get(ibcKeys.nextSequenceSend('transfer', 'channel-0'))).toBe('2');
    const keys = (type: string) => events.find((e) => e.type === type)!.attributes.map((x) => x.key);
    expect(keys('send_packet')).toEqual([
      'packet_data',
      'packet_data_hex',
      'packet_timeout_height',
      'packet_timeout_timestamp',
      'packet_sequence',
      'packet_src_port',
      'packet_src_channel',
      'packet_dst_port',
      'packet_dst_channel',
      'packet_channel_ordering',
      'packet_connection',
      'connection_id',
      'msg_index',
    ]);
    expect(keys('ibc_transfer')).toEqual(['sender', 'receiver', 'amount', 'denom', 'memo', 'msg_index']);
    expect(events.map((e) => e.type)).toEqual([
      'coin_spent',
      'coin_received',
      'transfer',
      'message',
      'send_packet',
      'message',
      'ibc_transfer',
      'message',
    ]);
  });

  it('refuses an acknowledgement whose packet does not match the commitment, and ignores a repeated one', async () => {
    const { run } = await setup();
    const packet = sentPacket((await run(transferMsg(), user)).events);
    const ack = (p: Packet) =>
      encodeAny(MSG_ACKNOWLEDGEMENT, {
        packet: p,
        acknowledgement: new TextEncoder().encode('{"result":"AQ=="}'),
        proofAcked: new Uint8Array([1]),
        proofHeight: { revisionNumber: 1n, revisionHeight: 5n },
        signer: relayer,
      });
    const forged = {
      ...packet,
      data: new TextEncoder().encode(Buffer.from(packet.data).toString().replace('100', '900')),
    };
    await expect(run(ack(forged))).rejects.toThrow(/commitment bytes are not equal/);
    const first = await run(ack(packet));
    expect(first.events.map((e) => e.type)).toContain('acknowledge_packet');
    const again = await run(ack(packet));
    expect(again.events).toEqual([]);
  });

  it('refuses a timeout before the timeout height, then refunds after it', async () => {
    const { store, bank, run } = await setup();
    const packet = sentPacket((await run(transferMsg(20n, 0n), user)).events);
    expect(await bank.balance(store, user, 'umin')).toBe(900n);
    const timeout = (proofHeight: bigint) =>
      encodeAny(MSG_TIMEOUT, {
        packet,
        proofUnreceived: new Uint8Array([1]),
        proofHeight: { revisionNumber: 1n, revisionHeight: proofHeight },
        nextSequenceRecv: 1n,
        signer: relayer,
      });
    await expect(run(timeout(19n))).rejects.toThrow(/packet timeout not reached/);
    const { response, events } = await run(timeout(20n));
    expect(MsgTimeoutResponse.decode(response.value).result).toBe(2);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['timeout_packet', 'timeout']));
    expect(await bank.balance(store, user, 'umin')).toBe(1000n);
  });

  it('receives once: a second delivery is a no-op, a wrong channel or an elapsed timeout fails', async () => {
    const { run } = await setup('weft-wasm-1');
    const packet: Packet = {
      sequence: 9n,
      sourcePort: 'transfer',
      sourceChannel: 'channel-5',
      destinationPort: 'transfer',
      destinationChannel: 'channel-0',
      data: new TextEncoder().encode(
        JSON.stringify({ amount: '7', denom: 'uatom', receiver: user, sender: relayer }),
      ),
      timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp: 4_000_000_000_000_000_000n,
    };
    const recv = (p: Packet) =>
      encodeAny(MSG_RECV_PACKET, {
        packet: p,
        proofCommitment: new Uint8Array([1]),
        proofHeight: { revisionNumber: 1n, revisionHeight: 3n },
        signer: relayer,
      });
    const first = await run(recv(packet));
    expect(MsgRecvPacketResponse.decode(first.response.value).result).toBe(2);
    expect(first.events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'recv_packet',
        'denomination_trace',
        'fungible_token_packet',
        'write_acknowledgement',
      ]),
    );
    const second = await run(recv(packet));
    expect(MsgRecvPacketResponse.decode(second.response.value).result).toBe(1);
    await expect(run(recv({ ...packet, sequence: 10n, destinationChannel: 'channel-3' }))).rejects.toThrow(
      /channel not found/,
    );
    await expect(run(recv({ ...packet, sequence: 11n, timeoutTimestamp: 1n }))).rejects.toThrow(TxError);
  });
});
