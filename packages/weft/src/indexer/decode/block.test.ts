import { describe, expect, it } from 'vitest';
import { captureDrops } from '../test-support/drops.js';
import { decodeBlock, metaRequests } from './block.js';
import { DecodeError, MissingMetaError } from './errors.js';
import {
  A_COS,
  A_ETH,
  B,
  BLOCK,
  BLOCK_RESULTS,
  BUNDLE,
  C20,
  C721,
  COLLECTOR,
  D,
  E721,
  FEE,
  HEIGHT,
  LOGS,
  REST_TX0,
  REST_TX1,
  TRANSFER,
  TX0_EVENTS,
  TX1_EVENTS,
  topic,
  u256,
  ZERO_TOPIC,
} from './fixtures/evm-block.js';
import { readable } from './fixtures/readable.js';

const OPTIONS = { vm: 'evm', bech32Prefix: 'init', chainId: 'minievm-1' } as const;
const ZERO = `0x${'00'.repeat(20)}`;
const ID7 = `0x${'00'.repeat(19)}07`;
const ID1 = `0x${'00'.repeat(19)}01`;
const TIMESTAMP = '2026-01-01T00:00:01.1234567Z';
const TX0_HASH = 'D8050216ACB7EC261A8EAB7C5FFABD9D14A669C1950FB2C83D10CBB538779FDE';
const TX1_HASH = '361EDD27594AF28A758E8210411ED49D682DBDCAC70596A1D02404D4164BCFBA';
const TX_RECORD_KEYS = [
  'txhash',
  'height',
  'codespace',
  'code',
  'data',
  'raw_log',
  'logs',
  'info',
  'gas_wanted',
  'gas_used',
  'tx',
  'timestamp',
  'events',
];
const account = (hex: string, signer = false) => ({
  address: hex.startsWith('0x') ? hex : `0x${hex}`,
  signer,
});
const TX0_ACCOUNTS = [
  account(A_ETH, true),
  account(C721),
  account(C20),
  account(B),
  account(ZERO),
  account(D),
  account(ID7),
  account(E721),
  account(ID1),
];

describe('decodeBlock on an EVM block', () => {
  const block = decodeBlock(BUNDLE, OPTIONS);

  it('decodes the block fields', () => {
    expect(readable({ ...block, txs: [], evmTxs: [], nftChanges: [] })).toEqual({
      height: HEIGHT,
      hash: `0x${'d1f0'.repeat(16)}`,
      time: '2026-01-01T00:00:01.123456700Z',
      proposer: 'initvaloper1tglsqyfzxdz92enh3zv64w7vmhh07qq3zcp2u5',
      gasUsed: '121234',
      gasWanted: '300000',
      txCount: 2,
      totalFee: [
        { denom: 'GAS', amount: '1002' },
        { denom: 'uinit', amount: '500' },
      ],
      txs: [],
      evmTxs: [],
      nftChanges: [],
      nftOrigins: [],
    });
  });

  it('decodes a successful tx into the rollytics record, its accounts and NFTs', () => {
    const tx = block.txs[0]!;
    expect(readable(tx)).toEqual({
      hash: `0x${TX0_HASH.toLowerCase()}`,
      index: 0,
      code: 0,
      signer: `0x${A_ETH}`,
      msgTypes: ['minievm.evm.v1.MsgCall'],
      accounts: TX0_ACCOUNTS,
      record: {
        txhash: TX0_HASH,
        height: '1234',
        codespace: '',
        code: 0,
        data: '0A040A020001',
        raw_log: '',
        logs: [],
        info: '',
        gas_wanted: '200000',
        gas_used: '81234',
        tx: REST_TX0,
        timestamp: TIMESTAMP,
        events: [
          ...TX0_EVENTS.slice(0, 6),
          // omitempty: no empty value, no `index: false`; the NUL becomes U+FFFD
          { type: 'weird', attributes: [{ key: 'note' }, { key: 'memo', value: 'a\uFFFDb' }] },
          { type: 'empty' },
        ],
      },
      nfts: [{ collection: `0x${C721}`, tokenId: '7' }],
    });
    expect(Object.keys(tx.record)).toEqual(TX_RECORD_KEYS);
  });

  it('decodes a failed tx, matched to its REST JSON by signatures and stripped of @type', () => {
    expect(readable(block.txs[1])).toEqual({
      hash: `0x${TX1_HASH.toLowerCase()}`,
      index: 1,
      code: 5,
      signer: `0x${A_COS}`,
      msgTypes: ['cosmos.bank.v1beta1.MsgSend'],
      accounts: [account(A_COS, true), account(FEE), account(COLLECTOR)],
      record: {
        txhash: TX1_HASH,
        height: '1234',
        codespace: 'sdk',
        code: 5,
        data: '',
        raw_log: 'spendable balance 0uinit is smaller than 100uinit: insufficient funds',
        logs: [],
        info: '',
        gas_wanted: '100000',
        gas_used: '40000',
        tx: REST_TX1,
        timestamp: TIMESTAMP,
        events: TX1_EVENTS,
      },
      nfts: [],
    });
    expect(Object.keys(block.txs[1]!.record.tx as object)).toEqual(['body', 'auth_info', 'signatures']);
  });

  it('keeps the rollytics EvmTx keys of each receipt', () => {
    const log = (value: string, logIndex: string) => ({
      ...JSON.parse(value),
      blockNumber: '0x4d2',
      transactionHash: `0x${'aa'.repeat(32)}`,
      transactionIndex: '0x1',
      blockHash: `0x${'d1f0'.repeat(16)}`,
      logIndex,
      removed: false,
    });
    expect(readable(block.evmTxs)).toEqual([
      {
        hash: `0x${'aa'.repeat(32)}`,
        index: 0,
        signer: `0x${A_ETH}`,
        accounts: TX0_ACCOUNTS,
        record: {
          blockHash: `0x${'d1f0'.repeat(16)}`,
          blockNumber: '0x4d2',
          contractAddress: null,
          cumulativeGasUsed: '0x13d52',
          effectiveGasPrice: '0x3b9aca00',
          from: `0x${A_ETH}`,
          gasUsed: '0x13d52',
          logs: [
            log(LOGS.erc20, '0x0'),
            log(LOGS.mint721, '0x1'),
            log(LOGS.mintBlacklisted, '0x2'),
            log(LOGS.mint20, '0x3'),
          ],
          logsBloom: `0x${'00'.repeat(256)}`,
          status: '0x1',
          to: `0x${C721}`,
          transactionHash: `0x${'aa'.repeat(32)}`,
          transactionIndex: '0x1',
          type: '0x2',
        },
      },
      {
        hash: `0x${'bb'.repeat(32)}`,
        index: 1,
        signer: `0x${A_COS}`,
        accounts: [account(A_COS, true), account('cc'.repeat(20))],
        record: {
          blockHash: `0x${'d1f0'.repeat(16)}`,
          blockNumber: '0x4d2',
          contractAddress: `0x${'cc'.repeat(20)}`,
          cumulativeGasUsed: '0x13d52',
          effectiveGasPrice: '0x0',
          from: `0x${A_COS}`,
          gasUsed: '0x0',
          logs: [],
          logsBloom: `0x${'00'.repeat(256)}`,
          status: '0x1',
          to: '',
          transactionHash: `0x${'bb'.repeat(32)}`,
          transactionIndex: '0x2',
          type: '0x0',
        },
      },
    ]);
    expect(Object.keys(block.evmTxs[0]!.record)).toEqual([
      'blockHash',
      'blockNumber',
      'contractAddress',
      'cumulativeGasUsed',
      'effectiveGasPrice',
      'from',
      'gasUsed',
      'logs',
      'logsBloom',
      'status',
      'to',
      'transactionHash',
      'transactionIndex',
      'type',
    ]);
  });

  it('turns ERC721 transfers into NFT changes in event order, skipping a collection whose name() reverts', () => {
    expect(readable(block.nftChanges)).toEqual([
      { kind: 'collection', collection: `0x${C721}`, name: 'Devnet NFT', txIndex: 0 },
      {
        kind: 'mint',
        nft: { collection: `0x${C721}`, tokenId: '7' },
        owner: `0x${D}`,
        uri: 'ipfs://seven',
        txIndex: 0,
      },
      { kind: 'transfer', nft: { collection: `0x${C721}`, tokenId: '5' }, to: `0x${B}`, txIndex: null },
    ]);
  });
});

describe('metaRequests on an EVM block', () => {
  it("asks name() of every collection and tokenURI(id) of every token minted, at the block's height", () => {
    const call = (contract: string, input: string, height?: number) => ({
      kind: 'evm-call',
      key: `evm-call${height ? `@${height}` : ''}:0x${contract}:${input}`,
      contract: `0x${contract}`,
      input,
    });
    expect(metaRequests(BLOCK, BLOCK_RESULTS, OPTIONS)).toEqual([
      call(C721, '0x06fdde03'),
      call(E721, '0x06fdde03'),
      call(C721, `0xc87b56dd${u256(7)}`, HEIGHT),
      call(E721, `0xc87b56dd${u256(1)}`, HEIGHT),
    ]);
  });
});

describe('decodeBlock failures', () => {
  it('refuses a block of another chain', () => {
    expect(() => decodeBlock(BUNDLE, { ...OPTIONS, chainId: 'other-1' })).toThrow(DecodeError);
  });

  it('refuses results that do not match the txs', () => {
    const blockResults = { ...BLOCK_RESULTS, txs_results: BLOCK_RESULTS.txs_results.slice(0, 1) };
    expect(() => decodeBlock({ ...BUNDLE, blockResults }, OPTIONS)).toThrow('2 txs but 1 tx results');
  });

  it('refuses a tx without a REST JSON of the same signatures', () => {
    expect(() => decodeBlock({ ...BUNDLE, restTxs: [REST_TX0] }, OPTIONS)).toThrow(
      `no REST tx has the signatures of tx ${'361EDD27594AF28A758E8210411ED49D682DBDCAC70596A1D02404D4164BCFBA'}`,
    );
  });

  it('names a metadata request the bundle did not answer', () => {
    const meta = new Map(BUNDLE.meta);
    meta.delete(`evm-call:0x${C721}:0x06fdde03`);
    expect(() => decodeBlock({ ...BUNDLE, meta }, OPTIONS)).toThrow(MissingMetaError);
  });

  it('takes the signer from acc_seq when the signer info has no key it can hash', () => {
    const tx0 = BLOCK.block.data.txs![0]!;
    // The same tx with its ethsecp256k1 key type renamed to one the decoder does not know.
    const renamed = Buffer.from(
      Buffer.from(tx0, 'base64')
        .toString('latin1')
        .replace('/initia.crypto.v1beta1.ethsecp256k1.PubKey', '/initia.crypto.v1beta1.ethsecp256k1.PubKez'),
      'latin1',
    ).toString('base64');
    const block = {
      ...BLOCK,
      block: { ...BLOCK.block, data: { txs: [renamed, BLOCK.block.data.txs![1]!] } },
    };
    const decoded = decodeBlock({ ...BUNDLE, block }, OPTIONS);
    expect(readable(decoded.txs[0]!.signer)).toBe(`0x${A_ETH}`);
  });
});

describe('what decodeBlock drops', () => {
  const attr = (key: string, value: string) => ({ key, value, index: true });
  const log721 = (topics: string[]) => JSON.stringify({ address: `0x${C721}`, topics, data: '0x' });
  const malformedEvm = {
    type: 'evm',
    attributes: [
      attr('log', `{"address":"0x${C721}","topics":["${TRANSFER}"`),
      attr('log', log721([TRANSFER, ZERO_TOPIC, topic(D), '0xnot-a-token-id'])),
      attr('log', log721([TRANSFER, topic(D), `0x${'zz'.repeat(32)}`, topic(u256(5))])),
    ],
  };
  const malformedRecv = {
    type: 'recv_packet',
    attributes: [
      attr('packet_src_port', 'nft-transfer'),
      attr('packet_dst_port', 'nft-transfer'),
      attr('packet_dst_channel', 'channel-0'),
      attr('packet_data', '{"classId":'),
    ],
  };
  const [result0, result1] = BLOCK_RESULTS.txs_results;
  const body1 = REST_TX1.body as Record<string, unknown>;
  const bundle = {
    ...BUNDLE,
    blockResults: {
      ...BLOCK_RESULTS,
      txs_results: [
        { ...result0, events: [...TX0_EVENTS, malformedEvm] },
        { ...result1, events: [...TX1_EVENTS, malformedRecv] },
      ],
    },
    restTxs: [
      REST_TX0,
      { ...REST_TX1, body: { ...body1, messages: [...(body1.messages as unknown[]), { amount: [] }] } },
    ],
  };

  it('counts and reports each event it cannot read, once a minute per decoder, and decodes the rest', async () => {
    const { drops, counts, warnings, advance } = captureDrops();
    const block = decodeBlock(bundle, { ...OPTIONS, drops });
    expect(block.nftChanges).toEqual(decodeBlock(BUNDLE, OPTIONS).nftChanges);
    expect(block.txs[1]!.msgTypes).toEqual(['cosmos.bank.v1beta1.MsgSend']);
    const expected = {
      'nft_evm/bad_json': 1,
      'nft_evm/bad_token_id': 1,
      'nft_evm/bad_address': 1,
      'tx_accounts/bad_json': 1,
      'tx_msgs/missing_type': 1,
      'nft_origin/bad_json': 1,
      // The fixture's attribute-less `commission` finalize event.
      'block_events/no_attributes': 1,
    };
    expect(await counts()).toEqual(expected);
    const warned = () => warnings().map((w) => `${w.decoder}/${w.reason}@${w.height}`);
    expect(warned().sort()).toEqual(
      [
        'block_events/no_attributes',
        'nft_evm/bad_json',
        'nft_origin/bad_json',
        'tx_accounts/bad_json',
        'tx_msgs/missing_type',
      ].map((w) => `${w}@${HEIGHT}`),
    );

    decodeBlock(bundle, { ...OPTIONS, drops });
    expect(warnings()).toHaveLength(5);
    advance(60_000);
    decodeBlock(bundle, { ...OPTIONS, drops });
    expect(warnings()).toHaveLength(10);
    expect(warnings().find((w, i) => i >= 5 && w.decoder === 'nft_evm')).toMatchObject({
      suppressedSinceLastWarning: 5,
    });
    expect(await counts()).toEqual(Object.fromEntries(Object.entries(expected).map(([k, n]) => [k, 3 * n])));
  });

  it('drops nothing else of the well-formed block', async () => {
    const { drops, counts } = captureDrops();
    decodeBlock(BUNDLE, { ...OPTIONS, drops });
    expect(await counts()).toEqual({ 'block_events/no_attributes': 1 });
  });
});
