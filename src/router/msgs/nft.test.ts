import { rmSync } from 'node:fs';
import { decodeFunctionData, getAddress, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBech32, toBech32 } from '../../chain/address.js';
import { type BcsReader, bcsReader } from '../../chain/bcs.js';
import { collectionAddress, padMoveAddress, STD_ADDRESS } from '../../chain/move-object.js';
import { NoRouteError, RouteRequestError, RouterError, UnknownAssetError } from '../errors.js';
import { ibcHashOf } from '../graph/denoms.js';
import { createHopGraph } from '../graph/hops.js';
import { loadRegistry } from '../registry/load.js';
import type { RouterRegistry } from '../registry/types.js';
import {
  alice,
  aminoTypes,
  bob,
  ICS721_CONTRACT,
  NFT_EVM,
  NFT_L1,
  NFT_PLAIN,
  NFT_WASM,
  protos,
  WASM_PORT,
  writeNftRegistry,
} from '../test-support/nft-registry.js';
import { buildNftTransferMsgs, NFT_TRANSFER_TYPE_URL, type NftTransferRequest } from './nft.js';
import { NFT_FORWARD_FUNCTION } from './nft-hops.js';

/** ICS-721 channels read from an initia-registry folder, and the NFT transfer msgs built over them. */

const NOW = 1_900_000_000_000;
let dir: string;
let registry: RouterRegistry;

beforeAll(async () => {
  dir = writeNftRegistry();
  registry = await loadRegistry(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (over: Partial<NftTransferRequest>): NftTransferRequest => ({
  fromAddress: alice,
  fromChainId: NFT_L1,
  toAddress: bob,
  toChainId: NFT_EVM,
  collectionAddress: '0xabc',
  tokenIds: ['1'],
  timeoutSeconds: 1800,
  nowMs: NOW,
  ...over,
});

/** A cw721 collection of the Wasm rollup. */
const CW721 = toBech32(
  'init',
  Uint8Array.from({ length: 32 }, (_, i) => 200 - i),
);

/** A `send_nft` msg, decoded as the chain would: the collection, the contract it goes to and the IbcOutgoingMsg. */
function sendNftOf(msg: { type: string; value: unknown }) {
  const decoded = walletDecode(msg).value as { sender: string; contract: string; msg: Uint8Array };
  const body = JSON.parse(Buffer.from(decoded.msg).toString()) as {
    send_nft: { contract: string; token_id: string; msg: string };
  };
  return {
    sender: decoded.sender,
    collection: decoded.contract,
    contract: body.send_nft.contract,
    tokenId: body.send_nft.token_id,
    outgoing: JSON.parse(Buffer.from(body.send_nft.msg, 'base64').toString()),
  };
}

/** What InterwovenKit does with the answer: `fromAmino` with the Initia amino types; then the proto encoding it signs. */
function walletDecode(msg: { type: string; value: unknown }) {
  const decoded = aminoTypes.fromAmino(msg as never);
  const bytes = protos.encode(decoded);
  // Proto defaults the amino form leaves out (MsgCall's auth_list) come back empty.
  expect(protos.decode({ typeUrl: decoded.typeUrl, value: bytes })).toMatchObject(decoded.value);
  return decoded;
}

describe('ICS-721 channels of the registry', () => {
  it('reads nft-transfer and wasm ics721 ends with their far ends, and leaves the fungible graph ICS-20 only', () => {
    expect(registry.chain(NFT_L1)!.nftChannels).toEqual([
      {
        counterpartyChainId: NFT_EVM,
        portId: 'nft-transfer',
        channelId: 'channel-1',
        counterpartyPortId: 'nft-transfer',
        counterpartyChannelId: 'channel-2',
        version: 'ics721-1',
      },
      {
        counterpartyChainId: NFT_WASM,
        portId: 'nft-transfer',
        channelId: 'channel-4',
        counterpartyPortId: WASM_PORT,
        counterpartyChannelId: 'channel-5',
        version: 'ics721-1',
      },
      expect.objectContaining({ channelId: 'channel-7', counterpartyChannelId: 'channel-3' }),
    ]);
    expect(registry.chain(NFT_WASM)!.nftChannels).toEqual([
      expect.objectContaining({
        portId: WASM_PORT,
        channelId: 'channel-5',
        counterpartyPortId: 'nft-transfer',
        counterpartyChannelId: 'channel-4',
      }),
    ]);
    for (const chain of registry.chains)
      expect(chain.ibcChannels.every((c) => c.portId === 'transfer')).toBe(true);
    const graph = createHopGraph(registry);
    const hops = graph.hopsFrom(graph.place(NFT_L1, 'uinit')!);
    expect(hops.flatMap(({ hop }) => (hop.kind === 'ibc' ? [hop.channel] : []))).toEqual(['channel-0']);
  });
});

describe('buildNftTransferMsgs', () => {
  it('sends a Move collection from the L1 as move/<object>, in amino JSON a wallet decodes and encodes', () => {
    const msgs = buildNftTransferMsgs(registry, request({ tokenIds: ['a', 'b'] }));
    expect(msgs).toEqual([
      {
        type: 'nft-transfer/MsgTransfer',
        value: {
          source_port: 'nft-transfer',
          source_channel: 'channel-1',
          class_id: `move/${'0'.repeat(61)}abc`,
          token_ids: ['a', 'b'],
          sender: alice,
          receiver: bob,
          timeout_height: {},
          timeout_timestamp: String(BigInt(NOW + 1_800_000) * 1_000_000n),
        },
      },
    ]);
    const decoded = walletDecode(msgs[0]!);
    expect(decoded.typeUrl).toBe(NFT_TRANSFER_TYPE_URL);
    expect(decoded.value).toMatchObject({
      sourcePort: 'nft-transfer',
      sourceChannel: 'channel-1',
      classId: `move/${'0'.repeat(61)}abc`,
      tokenIds: ['a', 'b'],
      timeoutTimestamp: BigInt(NOW + 1_800_000) * 1_000_000n,
      memo: '',
    });
  });

  it('names an EVM collection evm/<contract>, takes a 0x sender on the EVM rollup, and its class id as given', () => {
    const contract = '0x00000000000000000000000000000000000000Fe';
    const hexSender = '0x0102030405060708090a0b0c0d0e0f1011121314';
    const native = buildNftTransferMsgs(
      registry,
      request({
        fromChainId: NFT_EVM,
        fromAddress: hexSender,
        toChainId: NFT_L1,
        collectionAddress: contract,
        tokenIds: ['7'],
        timeoutSeconds: 60,
      }),
    );
    expect(native[0]!.value).toMatchObject({
      source_port: 'nft-transfer',
      source_channel: 'channel-2',
      class_id: 'evm/00000000000000000000000000000000000000fe',
      sender: alice,
      timeout_timestamp: String(BigInt(NOW + 60_000) * 1_000_000n),
    });
    walletDecode(native[0]!);
    const given = buildNftTransferMsgs(
      registry,
      request({
        fromChainId: NFT_EVM,
        toChainId: NFT_L1,
        classId: 'ibc/ABCDEF',
        collectionAddress: contract,
      }),
    );
    expect(given[0]!.value).toMatchObject({ class_id: 'ibc/ABCDEF' });
  });

  it('sends a class back over the channel its trace came by (unwinding), else the first channel', () => {
    const back = (path: string) =>
      buildNftTransferMsgs(
        registry,
        request({
          fromChainId: NFT_EVM,
          toChainId: NFT_L1,
          classId: 'ibc/0123',
          classTrace: { path, baseClassId: `move/${'1'.repeat(64)}` },
        }),
      )[0]!.value as { source_channel: string; class_id: string };
    expect(back('nft-transfer/channel-3')).toMatchObject({
      source_channel: 'channel-3',
      class_id: 'ibc/0123',
    });
    expect(back('nft-transfer/channel-2').source_channel).toBe('channel-2');
    expect(back('nft-transfer/channel-9').source_channel).toBe('channel-2');
    const fromPath = buildNftTransferMsgs(
      registry,
      request({ fromChainId: NFT_EVM, toChainId: NFT_L1, classId: 'nft-transfer/channel-3/move/01' }),
    );
    expect(fromPath[0]!.value).toMatchObject({ source_channel: 'channel-3' });
  });

  it('sends from the L1 to the Wasm rollup over the L1 module, and back with send_nft to the ics721 contract', () => {
    const msgs = buildNftTransferMsgs(registry, request({ toChainId: NFT_WASM }));
    expect(msgs[0]!.value).toMatchObject({ source_port: 'nft-transfer', source_channel: 'channel-4' });
    walletDecode(msgs[0]!);
    const back = buildNftTransferMsgs(
      registry,
      request({ fromChainId: NFT_WASM, toChainId: NFT_L1, collectionAddress: CW721, tokenIds: ['1', '2'] }),
    );
    expect(back.map((m) => m.type)).toEqual(['wasm/MsgExecuteContract', 'wasm/MsgExecuteContract']);
    const sends = back.map((m) => sendNftOf(m));
    expect(sends[1]).toEqual({
      sender: alice,
      collection: CW721,
      contract: ICS721_CONTRACT,
      tokenId: '2',
      outgoing: {
        receiver: bob,
        channel_id: 'channel-5',
        timeout: { timestamp: String(BigInt(NOW + 1_800_000) * 1_000_000n) },
      },
    });
  });

  it('sends within one chain: object::transfer_call per Move object, ERC721 transferFrom per EVM token, cw721 transfer_nft per Wasm token', () => {
    const objects = [`0x${'12'.repeat(32)}`, '0x5'];
    const move = buildNftTransferMsgs(
      registry,
      request({ toChainId: NFT_L1, tokenIds: ['a', 'b'], objectAddresses: objects }),
    );
    expect(move.map((m) => m.type)).toEqual(['move/MsgExecute', 'move/MsgExecute']);
    const bobBytes = fromBech32(bob).bytes;
    const decodedMove = move.map(walletDecode);
    expect(decodedMove[1]!.value).toEqual({
      sender: alice,
      moduleAddress: '0x1',
      moduleName: 'object',
      functionName: 'transfer_call',
      typeArgs: [],
      args: [
        Uint8Array.from(Buffer.from('5'.padStart(64, '0'), 'hex')),
        Uint8Array.from([...new Uint8Array(12), ...bobBytes]),
      ],
    });
    expect(Buffer.from(decodedMove[0]!.value.args[0]).toString('hex')).toBe('12'.repeat(32));

    const contract = '0x00000000000000000000000000000000000000fe';
    const evm = buildNftTransferMsgs(
      registry,
      request({
        fromChainId: NFT_EVM,
        toChainId: NFT_EVM,
        collectionAddress: contract,
        tokenIds: ['7', '8'],
      }),
    );
    expect(evm.map((m) => m.type)).toEqual(['evm/MsgCall', 'evm/MsgCall']);
    const call = walletDecode(evm[0]!).value;
    expect(call).toMatchObject({
      sender: alice,
      contractAddr: getAddress(contract),
      value: '0',
      accessList: [],
    });
    const input = decodeFunctionData({
      abi: parseAbi(['function transferFrom(address from, address to, uint256 tokenId)']),
      data: call.input,
    });
    expect(input.functionName).toBe('transferFrom');
    expect(input.args).toEqual([
      getAddress(`0x${Buffer.from(fromBech32(alice).bytes).toString('hex')}`),
      getAddress(`0x${Buffer.from(bobBytes).toString('hex')}`),
      7n,
    ]);

    const wasm = buildNftTransferMsgs(
      registry,
      request({ fromChainId: NFT_WASM, toChainId: NFT_WASM, collectionAddress: CW721, tokenIds: ['7'] }),
    );
    const transfer = walletDecode(wasm[0]!).value as { sender: string; contract: string; msg: Uint8Array };
    expect(wasm[0]!.type).toBe('wasm/MsgExecuteContract');
    expect({ ...transfer, msg: JSON.parse(Buffer.from(transfer.msg).toString()) }).toEqual({
      sender: alice,
      contract: CW721,
      msg: { transfer_nft: { recipient: bob, token_id: '7' } },
      funds: [],
    });

    const local: Array<[Partial<NftTransferRequest>, string]> = [
      [{ toChainId: NFT_L1 }, 'object_addresses'],
      [{ toChainId: NFT_L1, objectAddresses: [null] }, 'object_addresses/0'],
      [
        { fromChainId: NFT_EVM, toChainId: NFT_EVM, collectionAddress: contract, tokenIds: ['x'] },
        'token_ids/0',
      ],
      [{ fromChainId: NFT_EVM, toChainId: NFT_EVM, collectionAddress: alice }, 'collection_address'],
      [{ fromChainId: NFT_WASM, toChainId: NFT_WASM, collectionAddress: 'init1nope' }, 'collection_address'],
    ];
    for (const [over, text] of local)
      expect(() => buildNftTransferMsgs(registry, request(over)), text).toThrow(text);
  });

  it('refuses unknown chains, chains without an ICS-721 channel between them and bad input, naming the field', () => {
    expect(() => buildNftTransferMsgs(registry, request({ toChainId: 'nope-1' }))).toThrow(UnknownAssetError);
    expect(() => buildNftTransferMsgs(registry, request({ fromChainId: 'nope-1' }))).toThrow(
      UnknownAssetError,
    );
    expect(() =>
      buildNftTransferMsgs(registry, request({ fromChainId: NFT_EVM, toChainId: NFT_PLAIN })),
    ).toThrow(NoRouteError);
    expect(() =>
      buildNftTransferMsgs(
        registry,
        request({ fromChainId: NFT_PLAIN, toChainId: NFT_EVM, objectAddresses: ['0x1'] }),
      ),
    ).toThrow(NoRouteError);
    const cases: Array<[Partial<NftTransferRequest>, string]> = [
      [{ fromAddress: toBech32('cosmos', new Uint8Array(20)) }, 'from_address'],
      [{ toAddress: 'init1qqqq' }, 'to_address'],
      [{ l1RecoverAddress: '0xzz' }, 'l1_recover_address'],
      [{ tokenIds: [] }, 'token_ids'],
      [{ tokenIds: Array.from({ length: 31 }, (_, i) => String(i)) }, 'token_ids'],
      [{ tokenIds: ['1', '1'] }, 'token_ids'],
      [{ tokenIds: [''] }, 'token_ids'],
      [{ collectionAddress: `0x${'1'.repeat(65)}` }, 'collection_address'],
      [{ collectionAddress: 'nope' }, 'collection_address'],
      [
        { fromChainId: NFT_EVM, toChainId: NFT_L1, collectionAddress: `0x${'1'.repeat(64)}` },
        'collection_address',
      ],
    ];
    for (const [over, field] of cases) {
      let error: unknown;
      try {
        buildNftTransferMsgs(registry, request(over));
      } catch (err) {
        error = err;
      }
      expect(error, field).toBeInstanceOf(RouterError);
      expect(error).toMatchObject({ status: 400, message: expect.stringContaining(field) });
    }
    expect(
      buildNftTransferMsgs(registry, request({ tokenIds: Array.from({ length: 30 }, (_, i) => String(i)) })),
    ).toHaveLength(1);
  });
});

/** The move hook of a first hop's memo, its BCS arguments read back as `0x1::nft_transfer::nft_transfer` takes them. */
function forwardOf(memo: string) {
  const { message } = JSON.parse(memo).move;
  expect(Object.keys(message).sort()).toEqual([
    'args',
    'function_name',
    'module_address',
    'module_name',
    'type_args',
  ]);
  expect(message).toMatchObject({
    module_address: '0x1',
    module_name: 'nft_transfer',
    function_name: 'nft_transfer',
  });
  const r = (i: number) => bcsReader(Buffer.from(message.args[i], 'base64'));
  const one = <T>(i: number, read: (x: BcsReader) => T): T => {
    const reader = r(i);
    const value = read(reader);
    expect(reader.remaining, `argument ${i}`).toBe(0);
    return value;
  };
  expect(message.args).toHaveLength(10);
  return {
    recover: one(0, (x) => Buffer.from(x.address()).toString('hex')),
    receiver: one(1, (x) => x.string()),
    collection: one(2, (x) => Buffer.from(x.address()).toString('hex')),
    tokenIds: one(3, (x) => Array.from({ length: x.uleb128() }, () => x.string())),
    port: one(4, (x) => x.string()),
    channel: one(5, (x) => x.string()),
    revision: [one(6, (x) => x.u64()), one(7, (x) => x.u64())],
    timeout: one(8, (x) => x.u64()),
    memo: one(9, (x) => x.string()),
  };
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const padded = (address: string) => hex(padMoveAddress(fromBech32(address).bytes));
const l1Collection = (path: string) => hex(collectionAddress(STD_ADDRESS, ibcHashOf(path)));

describe('buildNftTransferMsgs between rollups, through the L1', () => {
  const evmContract = '0x00000000000000000000000000000000000000fe';
  const evmClass = 'evm/00000000000000000000000000000000000000fe';
  const hop1 = BigInt(NOW + 1_800_000) * 1_000_000n;
  const hop2 = BigInt(NOW + 3_600_000) * 1_000_000n;

  it('sends an EVM collection to the Wasm rollup: to the L1 hook, which sends it on over the L1 end to Wasm', () => {
    const msgs = buildNftTransferMsgs(
      registry,
      request({
        fromChainId: NFT_EVM,
        toChainId: NFT_WASM,
        collectionAddress: evmContract,
        tokenIds: ['7', '9'],
      }),
    );
    expect(msgs).toHaveLength(1);
    const decoded = walletDecode(msgs[0]!).value;
    expect(decoded).toMatchObject({
      sourcePort: 'nft-transfer',
      sourceChannel: 'channel-2',
      classId: evmClass,
      tokenIds: ['7', '9'],
      sender: alice,
      receiver: NFT_FORWARD_FUNCTION,
      timeoutTimestamp: hop1,
    });
    expect(forwardOf(decoded.memo)).toEqual({
      recover: padded(alice),
      receiver: bob,
      // The L1 received the class over its channel-1 (the far end of channel-2): an ibc/<hash> collection of 0x1.
      collection: l1Collection(`nft-transfer/channel-1/${evmClass}`),
      tokenIds: ['7', '9'],
      port: 'nft-transfer',
      channel: 'channel-4',
      revision: [0n, 0n],
      timeout: hop2,
      memo: '',
    });
    const recovered = buildNftTransferMsgs(
      registry,
      request({
        fromChainId: NFT_EVM,
        toChainId: NFT_WASM,
        collectionAddress: evmContract,
        l1RecoverAddress: bob,
      }),
    );
    expect(forwardOf(walletDecode(recovered[0]!).value.memo).recover).toBe(padded(bob));
  });

  it('sends a cw721 collection to the EVM rollup: send_nft to the ics721 contract (or its proxy), memo to the hook', () => {
    const msgs = buildNftTransferMsgs(
      registry,
      request({ fromChainId: NFT_WASM, toChainId: NFT_EVM, collectionAddress: CW721, classId: CW721 }),
    );
    const send = sendNftOf(msgs[0]!);
    expect(send).toMatchObject({
      collection: CW721,
      contract: ICS721_CONTRACT,
      outgoing: {
        receiver: NFT_FORWARD_FUNCTION,
        channel_id: 'channel-5',
        timeout: { timestamp: String(hop1) },
      },
    });
    expect(forwardOf(send.outgoing.memo)).toMatchObject({
      collection: l1Collection(`nft-transfer/channel-4/${CW721}`),
      channel: 'channel-1',
      receiver: bob,
    });
    const proxy = toBech32('init', new Uint8Array(32).fill(9));
    const viaProxy = buildNftTransferMsgs(
      registry,
      request({ fromChainId: NFT_WASM, toChainId: NFT_EVM, collectionAddress: CW721, outgoingProxy: proxy }),
    );
    expect(sendNftOf(viaProxy[0]!).contract).toBe(proxy);
    expect(() =>
      buildNftTransferMsgs(
        registry,
        request({
          fromChainId: NFT_WASM,
          toChainId: NFT_EVM,
          collectionAddress: CW721,
          outgoingProxy: 'cosmos1x',
        }),
      ),
    ).toThrow('outgoing_proxy');
  });

  it('unwinds: an L1 class goes home to its own collection; a Wasm class on EVM goes back over the channels it came by', () => {
    const l1Own = `move/${'ab'.repeat(32)}`;
    const fromL1 = buildNftTransferMsgs(
      registry,
      request({
        fromChainId: NFT_EVM,
        toChainId: NFT_WASM,
        classId: 'ibc/AAAA',
        classTrace: { path: 'nft-transfer/channel-3', baseClassId: l1Own },
      }),
    );
    const first = walletDecode(fromL1[0]!).value;
    expect(first).toMatchObject({ sourceChannel: 'channel-3', classId: 'ibc/AAAA' });
    expect(forwardOf(first.memo)).toMatchObject({ collection: 'ab'.repeat(32), channel: 'channel-4' });

    const home = buildNftTransferMsgs(
      registry,
      request({
        fromChainId: NFT_EVM,
        toChainId: NFT_WASM,
        classId: 'ibc/BBBB',
        classTrace: { path: `nft-transfer/channel-2/nft-transfer/channel-4`, baseClassId: CW721 },
      }),
    );
    const back = walletDecode(home[0]!).value;
    expect(back.sourceChannel).toBe('channel-2');
    expect(forwardOf(back.memo)).toMatchObject({
      collection: l1Collection(`nft-transfer/channel-4/${CW721}`),
      channel: 'channel-4',
    });
  });

  it('asks for the trace of an ibc/<hash> class it must send through the L1, and refuses a class that is not the L1’s', () => {
    expect(() =>
      buildNftTransferMsgs(
        registry,
        request({ fromChainId: NFT_EVM, toChainId: NFT_WASM, classId: 'ibc/CCCC' }),
      ),
    ).toThrow('class_trace');
    expect(() =>
      buildNftTransferMsgs(
        registry,
        request({
          fromChainId: NFT_EVM,
          toChainId: NFT_WASM,
          classTrace: { path: 'nft-transfer/channel-2', baseClassId: evmClass },
        }),
      ),
    ).toThrow(RouteRequestError);
  });
});
