import { describe, expect, it } from 'vitest';
import { captureDrops } from '../test-support/drops.js';
import { decodeBlock, metaRequests } from './block.js';
import { readable } from './fixtures/readable.js';
import {
  BAD,
  BLOCK,
  BLOCK_RESULTS,
  BUNDLE,
  CW,
  ICS,
  TX_EVENTS,
  W0,
  W1,
  W2,
  W3,
} from './fixtures/wasm-block.js';

const OPTIONS = { vm: 'wasm', bech32Prefix: 'mini', chainId: 'miniwasm-1' } as const;
const A_COS = '0x06afd46bcdfd22ef94ac122aa11f241244a37ecc';
const A_ETH = '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf';
/** The bytes behind each bech32 fixture address (encoded with the BIP-173 reference implementation). */
const BYTES = new Map([
  [CW, 'c7'.repeat(32)],
  [BAD, 'bd'.repeat(32)],
  [ICS, '1c'.repeat(32)],
  [W0, '0c'.repeat(20)],
  [W1, '01'.repeat(20)],
  [W2, '02'.repeat(20)],
  [W3, '03'.repeat(32)],
]);
const bytes = (bech32: string) => `0x${BYTES.get(bech32)}`;

describe('cw721 NFTs', () => {
  it('asks the name and creator of every contract that looks like a collection', () => {
    expect(metaRequests(BLOCK, BLOCK_RESULTS, OPTIONS)).toEqual([
      {
        kind: 'wasm-smart',
        key: `wasm-smart:${CW}:{"contract_info":{}}`,
        contract: CW,
        query: { contract_info: {} },
      },
      { kind: 'wasm-contract-info', key: `wasm-contract-info:${CW}`, contract: CW },
      {
        kind: 'wasm-smart',
        key: `wasm-smart:${BAD}:{"contract_info":{}}`,
        contract: BAD,
        query: { contract_info: {} },
      },
      { kind: 'wasm-contract-info', key: `wasm-contract-info:${BAD}`, contract: BAD },
    ]);
  });

  const block = decodeBlock(BUNDLE, OPTIONS);

  it('turns mint, transfer_nft, send_nft and burn into changes, skipping a contract whose query fails', () => {
    const nft = (tokenId: string) => ({ collection: bytes(CW), tokenId });
    expect(readable(block.nftChanges)).toEqual([
      { kind: 'collection', collection: bytes(CW), name: 'Wasm NFT', creator: bytes(W0), txIndex: 0 },
      { kind: 'mint', nft: nft('a'), owner: bytes(W1), uri: 'ipfs://a', txIndex: 0 },
      { kind: 'mint', nft: nft('b'), owner: bytes(W2), uri: '', txIndex: 0 },
      { kind: 'transfer', nft: nft('a'), to: bytes(W2), txIndex: 1 },
      { kind: 'transfer', nft: nft('b'), to: bytes(W3), txIndex: 1 },
      { kind: 'burn', nft: nft('a'), txIndex: 1 },
    ]);
    expect(readable(block.txs.map((t) => t.nfts))).toEqual([[nft('a'), nft('b')], [nft('a'), nft('b')], []]);
  });

  it('names the collections ICS-721 receives land in by port, channel and class id', () => {
    expect(block.nftOrigins).toEqual([
      { className: `wasm.${ICS}/channel-0/l1-c`, originName: 'Origin' },
      { className: `wasm.${ICS}/channel-1/l1-d`, originName: 'Origin' },
    ]);
  });

  it('greps accounts with the chain prefix only, splitting comma lists', () => {
    const account = (address: string, signer = false) => ({ address, signer });
    expect(readable(block.txs.map((t) => t.accounts))).toEqual([
      [
        account(A_COS, true),
        account(bytes(CW)),
        account(bytes(W0)),
        account(bytes(W1)),
        account(bytes(W2)),
        account(bytes(ICS)),
      ],
      [
        account(bytes(CW)),
        account(bytes(W1)),
        account(bytes(W2)),
        account(bytes(W3)),
        account(bytes(BAD)),
        account(bytes(W0)),
        account(A_ETH, true),
      ],
      [account(A_COS, true)],
    ]);
    expect(block.proposer).toBe('minivaloper1tglsqyfzxdz92enh3zv64w7vmhh07qq3xhmmh6');
  });
});

describe('what cw721 decoding drops', () => {
  const wasm = (attrs: Array<[string, string]>) => ({
    type: 'wasm',
    attributes: attrs.map(([key, value]) => ({ key, value, index: true })),
  });
  const malformed = [
    wasm([
      ['action', 'mint'],
      ['token_id', 'z'],
    ]),
    wasm([
      ['_contract_address', 'not-an-address'],
      ['action', 'burn'],
    ]),
    wasm([
      ['_contract_address', CW],
      ['action', 'mint'],
      ['token_id', 'c'],
    ]),
    wasm([
      ['_contract_address', CW],
      ['action', 'transfer_nft'],
      ['recipient', 'not-an-address'],
      ['token_id', 'b'],
    ]),
  ];
  const [first, second, third] = BLOCK_RESULTS.txs_results;
  const bundle = {
    ...BUNDLE,
    blockResults: {
      ...BLOCK_RESULTS,
      txs_results: [first!, { ...second!, events: [...TX_EVENTS[1]!, ...malformed] }, third!],
    },
  };

  it('counts and reports the NFT events it cannot read, once a minute, and decodes the rest', async () => {
    const { drops, counts, warnings, advance } = captureDrops();
    const decoded = decodeBlock(bundle, { ...OPTIONS, drops });
    expect(decoded.nftChanges).toEqual(decodeBlock(BUNDLE, OPTIONS).nftChanges);
    expect(await counts()).toEqual({ 'nft_wasm/missing_attribute': 2, 'nft_wasm/bad_address': 2 });
    expect(warnings()).toEqual([
      expect.objectContaining({ decoder: 'nft_wasm', reason: 'missing_attribute', height: 77 }),
    ]);
    advance(59_999);
    decodeBlock(bundle, { ...OPTIONS, drops });
    expect(warnings()).toHaveLength(1);
    advance(1);
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
