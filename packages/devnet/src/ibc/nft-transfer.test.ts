import { createHash } from 'node:crypto';
import { MsgRecvPacketResponse } from '@initia/initia.proto/ibc/core/channel/v1/tx.js';
import { describe, expect, it } from 'vitest';
import { toBech32 } from 'weft/chain/address.js';
import { classDataOf, decodePacketData, encodePacketData, type NftPacketData } from 'weft/protocol/ics721.js';
import { createMoveNftModule } from '../move/module.js';
import { moveAddresses } from '../move/msgs.js';
import { createStateStore } from '../state/store.js';
import { runMsg, testTxContext } from '../test-support/move-test-context.js';
import { type AbciEvent, type AnyMsg, TxError } from '../types.js';
import { contractAddress } from '../wasm/address.js';
import { createCw721Module } from '../wasm/module.js';
import { createNftTransferModule } from './nft-transfer.js';
import { buildNftRecvPacket } from './packet.js';

const relayer = toBech32('init', new Uint8Array(20).fill(0x44));
const receiver = toBech32('init', new Uint8Array(20).fill(0x55));
const l1Sender = toBech32('init', new Uint8Array(20).fill(0x66));
const CLASS_ID = `move/${'ab'.repeat(32)}`;

const packetData = (tokenIds: string[], extra: Partial<NftPacketData> = {}): NftPacketData => ({
  classId: CLASS_ID,
  classUri: 'ipfs://class',
  classData: classDataOf('Initia Cats', 'cats on L1'),
  tokenIds,
  tokenUris: tokenIds.map((id) => `ipfs://cat/${id}`),
  tokenData: tokenIds.map(() => ''),
  sender: l1Sender,
  receiver,
  ...extra,
});

const types = (events: AbciEvent[]) => events.map((e) => e.type);
const attrs = (e: AbciEvent) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value]));
const result = (response: { value: Uint8Array }) => MsgRecvPacketResponse.decode(response.value).result;

function chain(vm: 'move' | 'wasm') {
  const store = createStateStore();
  let height = 0;
  const block = async (module: Parameters<typeof runMsg>[0], msg: AnyMsg) => {
    height += 1;
    const ctx = testTxContext(store, { vm }, { height, signers: [relayer] });
    try {
      const response = await runMsg(module, ctx, msg);
      return { events: ctx.events, response };
    } finally {
      store.commitBlock(height);
    }
  };
  return { store, block };
}

const recv = (
  sequence: bigint,
  data: NftPacketData,
  destinationPort = 'nft-transfer',
  timeoutTimestamp?: bigint,
) =>
  buildNftRecvPacket({
    signer: relayer,
    sequence,
    sourceChannel: 'channel-7',
    destinationPort,
    destinationChannel: 'channel-0',
    data,
    timeoutTimestamp,
  });

describe('ICS-721 packet data', () => {
  it('encodes as initia GetBytes does: sorted camelCase keys, empty fields left out, Go escaping', () => {
    const bytes = encodePacketData({
      classId: 'c<1>',
      tokenIds: ['1'],
      tokenUris: [''],
      sender: 's',
      receiver: 'r',
    });
    expect(Buffer.from(bytes).toString()).toBe(
      '{"classId":"c\\u003c1\\u003e","receiver":"r","sender":"s","tokenIds":["1"]}',
    );
    expect(decodePacketData(bytes)).toMatchObject({
      classId: 'c<1>',
      tokenUris: [''],
      tokenData: [''],
      memo: '',
    });
  });
});

describe('ICS-721 receive on a Move rollup', () => {
  function setup() {
    const c = chain('move');
    const moveNft = createMoveNftModule({ prefix: 'init', store: c.store });
    const transfer = createNftTransferModule({ vm: 'move', prefix: 'init', move: moveNft.executor });
    return { ...c, moveNft, transfer, run: (msg: AnyMsg) => c.block(transfer.module, msg) };
  }
  const expectedName = `ibc/${createHash('sha256').update(`nft-transfer/channel-0/${CLASS_ID}`).digest('hex').toUpperCase()}`;
  const collection = moveAddresses.collection('0x1', expectedName);

  it('creates the ibc/<hash> collection owned by 0x1 and mints to the receiver', async () => {
    const { run, moveNft, transfer } = setup();
    expect(transfer.localClassName('channel-0', CLASS_ID)).toBe(expectedName);
    const { events, response } = await run(recv(1n, packetData(['1', '2'])));
    expect(result(response)).toBe(2);
    const mint = ['execute', 'move', 'move', 'move', 'move'];
    expect(types(events)).toEqual([
      'recv_packet',
      'message',
      'class_trace',
      ...['execute', 'move', 'move', 'move'],
      ...mint,
      ...mint,
      'non_fungible_token_packet',
      'write_acknowledgement',
      'message',
    ]);
    const data = Buffer.from(encodePacketData(packetData(['1', '2']))).toString();
    expect(events[0]!.attributes.map((a) => [a.key, a.value])).toEqual([
      ['packet_data', data],
      ['packet_data_hex', Buffer.from(data).toString('hex')],
      ['packet_timeout_height', '0-0'],
      ['packet_timeout_timestamp', '4102444800000000000'],
      ['packet_sequence', '1'],
      ['packet_src_port', 'nft-transfer'],
      ['packet_src_channel', 'channel-7'],
      ['packet_dst_port', 'nft-transfer'],
      ['packet_dst_channel', 'channel-0'],
      ['packet_channel_ordering', 'ORDER_UNORDERED'],
      ['packet_connection', 'connection-0'],
      ['connection_id', 'connection-0'],
      ['msg_index', '0'],
    ]);
    // What an indexer reads to pair the collections: the L1 name from classData, the L2 name from the class id.
    const packet = JSON.parse(attrs(events[0]!).packet_data!);
    expect(JSON.parse(Buffer.from(packet.classData, 'base64').toString())).toEqual({
      name: 'Initia Cats',
      description: 'cats on L1',
    });
    expect(attrs(events[2]!)).toMatchObject({ class_id: expectedName });
    expect(attrs(events[3]!)).toMatchObject({
      sender: '0x1',
      module_addr: '0x1',
      function_name: 'create_collection',
    });
    expect(attrs(events[6]!)).toMatchObject({
      type_tag: '0x1::collection::CreateCollectionEvent',
      name: expectedName,
      creator: '0x1',
    });
    expect(attrs(events[11]!)).toMatchObject({
      type_tag: '0x1::object::TransferEvent',
      from: '0x1',
      to: moveAddresses.account(receiver),
    });
    expect(attrs(events[17]!)).toMatchObject({
      module: 'nft-transfer',
      class_id: CLASS_ID,
      token_ids: '1,2',
      receiver,
      success: 'true',
    });
    expect(attrs(events[18]!)).toMatchObject({ packet_ack: '{"result":"AQ=="}', packet_sequence: '1' });

    const col = JSON.parse(
      moveNft.node.resource(collection, '0x1::collection::Collection')!.move_resource,
    ).data;
    expect(col).toMatchObject({
      name: expectedName,
      creator: '0x1',
      uri: 'ipfs://class',
      description: packetData([]).classData,
    });
    const nft = moveAddresses.nft('0x1', expectedName, '2');
    expect(JSON.parse(moveNft.node.resource(nft, '0x1::object::ObjectCore')!.move_resource).data.owner).toBe(
      moveAddresses.account(receiver),
    );
  });

  it('treats a relayed-again packet as a no-op and reuses the collection for the next one', async () => {
    const { run } = setup();
    await run(recv(1n, packetData(['1'])));
    const again = await run(recv(1n, packetData(['1'])));
    expect(result(again.response)).toBe(1);
    expect(again.events).toEqual([]);
    const next = await run(recv(2n, packetData(['2'])));
    expect(types(next.events)).toEqual([
      'recv_packet',
      'message',
      'class_trace',
      'execute',
      'move',
      'move',
      'move',
      'move',
      'non_fungible_token_packet',
      'write_acknowledgement',
      'message',
    ]);
  });

  it('acknowledges a failed receive with an error, keeping only the receipt', async () => {
    const { run, moveNft } = setup();
    await run(recv(1n, packetData(['1'])));
    const { events, response } = await run(recv(2n, packetData(['2', '1'])));
    expect(result(response)).toBe(2);
    expect(types(events)).toEqual([
      'recv_packet',
      'message',
      'ibccallbackerror-class_trace',
      'ibccallbackerror-execute',
      'ibccallbackerror-move',
      'ibccallbackerror-move',
      'ibccallbackerror-move',
      'ibccallbackerror-move',
      'ibccallbackerror-non_fungible_token_packet',
      'write_acknowledgement',
      'message',
    ]);
    expect(attrs(events[8]!)).toMatchObject({
      'ibccallbackerror-success': 'false',
      'ibccallbackerror-error':
        'VM aborted: location=0000000000000000000000000000000000000000000000000000000000000001::object, code=524289',
    });
    expect(attrs(events[9]!).packet_ack).toBe(
      '{"error":"ABCI code: 1: error handling packet: see events for details"}',
    );
    expect(
      moveNft.node.resource(moveAddresses.nft('0x1', expectedName, '2'), '0x1::nft::Nft'),
    ).toBeUndefined();
    expect(result((await run(recv(2n, packetData(['2'])))).response)).toBe(1);
  });

  it('rejects a timed-out packet', async () => {
    const { run } = setup();
    const err = await run(recv(1n, packetData(['1']), 'nft-transfer', 1n)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TxError);
    expect(err).toMatchObject({ codespace: 'channel', code: 40 });
    expect((err as TxError).message).toMatch(
      /^receive packet verification failed: packet timeout elapsed: current timestamp: \d+, timeout timestamp 1: timeout elapsed$/,
    );
  });
});

describe('ICS-721 receive on a Wasm rollup', () => {
  const ics721 = contractAddress('init', 9n, 9n);

  it('instantiates a cw721 named <port>/<channel>/<class id> and mints as the ICS-721 contract', async () => {
    const { store, block } = chain('wasm');
    const cw721 = createCw721Module({ prefix: 'init', store });
    const transfer = createNftTransferModule({ vm: 'wasm', prefix: 'init', wasm: cw721.keeper, ics721 });
    const port = `wasm.${ics721}`;
    expect(transfer.port).toBe(port);
    const name = `${port}/channel-0/${CLASS_ID}`;
    expect(transfer.localClassName('channel-0', CLASS_ID)).toBe(name);

    const { events } = await block(transfer.module, recv(1n, packetData(['1', '2']), port));
    const voucher = contractAddress('init', 1n, 1n);
    expect(types(events)).toEqual([
      'recv_packet',
      'message',
      'instantiate',
      'execute',
      'wasm',
      'execute',
      'wasm',
      'write_acknowledgement',
      'message',
    ]);
    expect(attrs(events[4]!)).toEqual({
      _contract_address: voucher,
      action: 'mint',
      minter: ics721,
      owner: receiver,
      token_id: '1',
      token_uri: 'ipfs://cat/1',
      msg_index: '0',
    });
    expect(cw721.node.smartQuery(voucher, { contract_info: {} })).toEqual({ name, symbol: name });
    expect(cw721.node.smartQuery(voucher, { owner_of: { token_id: '2' } })).toEqual({
      owner: receiver,
      approvals: [],
    });
    expect(cw721.node.contractInfo(voucher)).toMatchObject({ creator: ics721, code_id: '1' });

    const next = await block(transfer.module, recv(2n, packetData(['3']), port));
    expect(types(next.events)).toEqual([
      'recv_packet',
      'message',
      'execute',
      'wasm',
      'write_acknowledgement',
      'message',
    ]);
  });
});
