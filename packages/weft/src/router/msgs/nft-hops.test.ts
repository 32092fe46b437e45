import { describe, expect, it } from 'vitest';
import { fromBech32, toBech32 } from '../../chain/address.js';
import { type BcsReader, bcsReader } from '../../chain/bcs.js';
import { collectionAddress, padMoveAddress, STD_ADDRESS } from '../../chain/move-object.js';
import { ibcHash } from '../../protocol/ics20.js';
import { RouteRequestError } from '../errors.js';
import type { RouterRegistry } from '../registry/types.js';
import {
  alice,
  bob,
  CW721,
  ICS721_CONTRACT,
  NFT_EVM,
  NFT_WASM,
  nftRequest,
  sendNftOf,
  useNftRegistry,
  walletDecode,
} from '../test-support/nft-registry.js';
import { buildNftTransferMsgs, type NftTransferRequest } from './nft.js';
import { NFT_FORWARD_FUNCTION } from './nft-hops.js';

/**
 * NFTs between two rollups, through the L1: the first hop's receiver and memo are initia's move hook of
 * `0x1::nft_transfer::nft_transfer`, whose BCS arguments are read back here as that function takes them.
 */

const NOW = 1_900_000_000_000;
let registry: RouterRegistry;
useNftRegistry((loaded) => {
  registry = loaded;
});

const request = (over: Partial<NftTransferRequest>) => nftRequest(NOW, over);

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
const l1Collection = (path: string) => hex(collectionAddress(STD_ADDRESS, ibcHash(path)));

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
