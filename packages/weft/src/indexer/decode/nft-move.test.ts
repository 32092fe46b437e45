import { describe, expect, it } from 'vitest';
import { captureDrops } from '../test-support/drops.js';
import { decodeBlock, metaRequests } from './block.js';
import {
  BLOCK,
  BLOCK_RESULTS,
  BUNDLE,
  COLL_NEW,
  COLL_OLD,
  CREATOR_OLD,
  HEIGHT,
  lit,
  moveEvent,
  NFT1,
  NFT2,
  NFT3,
  OBJ,
  OLD,
  TX_EVENTS,
  U1,
  U2,
  U3,
} from './fixtures/move-block.js';
import { readable } from './fixtures/readable.js';

const OPTIONS = { vm: 'move', bech32Prefix: 'init', chainId: 'minimove-1' } as const;
const A_COS = '06afd46bcdfd22ef94ac122aa11f241244a37ecc';
const A_ETH = '7e5f4552091a69125d5dfcb7b8c2659029395bdf';
const hex = (h: string) => `0x${h}`;

describe('Move NFTs', () => {
  it('asks the token of each mint at the height, and once for collections and objects the block does not explain', () => {
    const resource = (address: string, structTag: string, height?: number) => ({
      kind: 'move-resource',
      key: `move-resource${height ? `@${height}` : ''}:0x${address}:${structTag}`,
      address: `0x${address}`,
      structTag,
    });
    expect(metaRequests(BLOCK, BLOCK_RESULTS, OPTIONS)).toEqual([
      resource(NFT1, '0x1::nft::Nft', HEIGHT),
      resource(COLL_OLD, '0x1::collection::Collection'),
      resource(OLD, '0x1::nft::Nft'),
      resource(OBJ, '0x1::nft::Nft'),
      resource(NFT3, '0x1::nft::Nft'),
    ]);
  });

  const block = decodeBlock(BUNDLE, OPTIONS);

  it('turns collection, mint, transfer, URI and burn events into changes in event order', () => {
    const key = (collection: string, tokenId: string) => ({ collection: hex(collection), tokenId });
    expect(readable(block.nftChanges)).toEqual([
      { kind: 'collection', collection: hex(COLL_NEW), name: 'NewCollection', creator: hex(U1), txIndex: 0 },
      {
        kind: 'mint',
        nft: key(COLL_NEW, '1'),
        objectAddr: hex(NFT1),
        owner: hex(U1),
        uri: 'ipfs://one',
        txIndex: 0,
      },
      { kind: 'transfer', nft: key(COLL_NEW, '1'), to: hex(U2), txIndex: 0 },
      // Minted and burned in the same tx: the token id comes from the event, the creator from the resource.
      {
        kind: 'mint',
        nft: key(COLL_OLD, '9'),
        objectAddr: hex(NFT2),
        owner: hex(CREATOR_OLD),
        uri: '',
        txIndex: 1,
      },
      { kind: 'burn', nft: key(COLL_OLD, '9'), txIndex: 1 },
      { kind: 'transfer', nft: key(COLL_OLD, '42'), to: hex(U3), txIndex: 1 },
      // OBJ is no NFT: its transfer is skipped. The description change is not an NFT change.
      { kind: 'uri', nft: key(COLL_OLD, '43'), uri: 'ipfs://new', txIndex: 1 },
      { kind: 'burn', nft: key(COLL_OLD, '44'), txIndex: null },
    ]);
    expect(block.txs.map((t) => t.nfts)).toEqual([[], [], []]);
  });

  it('names the ibc/ collection an ICS-721 receive lands in', () => {
    expect(block.nftOrigins).toEqual([
      {
        className: 'ibc/49BC8A0DF6A4794F1B75F44CC451FA34AF44C90D999A699DFC74DB45B60BD16A',
        originName: 'L1 Name',
      },
    ]);
  });

  it('greps the 0x addresses of Move event data as accounts, objects as 32 bytes', () => {
    const account = (address: string, signer = false) => ({ address: hex(address), signer });
    expect(readable(block.txs.map((t) => t.accounts))).toEqual([
      [account(A_COS, true), account(COLL_NEW), account(U1), account(NFT1), account(U2)],
      [
        account(COLL_OLD),
        account(NFT2),
        account(OLD),
        account(U2),
        account(U3),
        account(OBJ),
        account(NFT3),
        account(A_ETH, true),
      ],
      [account(A_COS, true)],
    ]);
  });

  it('keeps an escaped NUL of event JSON as the text \\uFFFD in the tx record', () => {
    const events = block.txs[0]!.record.events as Array<{
      attributes: Array<{ key: string; value: string }>;
    }>;
    expect(events[1]!.attributes[1]!.value).toBe(
      `{"collection":"0xab1${'b1'.repeat(30)}","creator":"0x${U1}","name":"New\\uFFFDCollection"}`,
    );
  });
});

describe('what Move NFT decoding drops', () => {
  const malformed = [
    { type: 'move', attributes: [{ key: 'type_tag', value: '0x1::collection::MintEvent', index: true }] },
    {
      type: 'move',
      attributes: [
        { key: 'type_tag', value: '0x1::collection::MintEvent', index: true },
        { key: 'data', value: '{"collection":', index: true },
      ],
    },
    moveEvent('0x1::collection::MintEvent', { collection: lit(COLL_NEW), token_id: '2', nft: 'not-hex' }),
    moveEvent('0x1::object::TransferEvent', { object: lit(NFT1), from: lit(U2), to: 'not-an-address' }),
    // Not NFT events: no drops.
    moveEvent('0x1::coin::DepositEvent', { amount: '1' }),
  ];
  const [first, ...rest] = BLOCK_RESULTS.txs_results;
  const bundle = {
    ...BUNDLE,
    blockResults: {
      ...BLOCK_RESULTS,
      txs_results: [{ ...first!, events: [...TX_EVENTS[0]!, ...malformed] }, ...rest],
    },
  };

  it('counts and reports the NFT events it cannot read, once a minute, and decodes the rest', async () => {
    const { drops, counts, warnings, advance } = captureDrops();
    expect(metaRequests(bundle.block, bundle.blockResults, OPTIONS)).toEqual(
      metaRequests(BLOCK, BLOCK_RESULTS, OPTIONS),
    );
    const decoded = decodeBlock(bundle, { ...OPTIONS, drops });
    expect(decoded.nftChanges).toEqual(decodeBlock(BUNDLE, OPTIONS).nftChanges);
    expect(await counts()).toEqual({
      'nft_move/missing_attribute': 1,
      'nft_move/bad_json': 1,
      'nft_move/bad_fields': 1,
      'nft_move/bad_address': 1,
    });
    expect(warnings()).toEqual([
      expect.objectContaining({ decoder: 'nft_move', reason: 'missing_attribute', height: HEIGHT }),
    ]);
    decodeBlock(bundle, { ...OPTIONS, drops });
    advance(60_000);
    decodeBlock(bundle, { ...OPTIONS, drops });
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatchObject({ suppressedSinceLastWarning: 7 });
  });

  it('drops nothing of the well-formed block', async () => {
    const { drops, counts } = captureDrops();
    decodeBlock(BUNDLE, { ...OPTIONS, drops });
    expect(await counts()).toEqual({});
  });
});
