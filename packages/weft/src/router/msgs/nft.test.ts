import { decodeFunctionData, getAddress, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { fromBech32, toBech32 } from '../../chain/address.js';
import { NoRouteError, RouterError, UnknownAssetError } from '../errors.js';
import { createHopGraph } from '../graph/hops.js';
import type { RouterRegistry } from '../registry/types.js';
import {
  alice,
  bob,
  CW721,
  ICS721_CONTRACT,
  NFT_EVM,
  NFT_L1,
  NFT_PLAIN,
  NFT_WASM,
  nftRequest,
  sendNftOf,
  useNftRegistry,
  WASM_PORT,
  walletDecode,
} from '../test-support/nft-registry.js';
import { buildNftTransferMsgs, NFT_TRANSFER_TYPE_URL, type NftTransferRequest } from './nft.js';

/** ICS-721 channels read from an initia-registry folder, and the NFT transfer msgs built over them. */

const NOW = 1_900_000_000_000;
let registry: RouterRegistry;
useNftRegistry((loaded) => {
  registry = loaded;
});

const request = (over: Partial<NftTransferRequest>) => nftRequest(NOW, over);

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
