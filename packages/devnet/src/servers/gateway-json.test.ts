import { describe, expect, it } from 'vitest';
import type { TxRecord } from '../node.js';
import { gatewayBlock, protoTimestamp, sdkBlock, secondsTimestamp, txResponseJson } from './gateway-json.js';

const HASH = 'D1F0A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E';
const PROPOSER = '5A3F00112233445566778899AABBCCDDEEFF0011';

const cometBlock = {
  header: {
    version: { block: '11', app: '0' },
    chain_id: 'minievm-1',
    height: '1234',
    time: '2026-01-01T00:00:01.5Z',
    last_block_id: { hash: HASH, parts: { total: 1, hash: HASH } },
    last_commit_hash: HASH,
    data_hash: HASH,
    validators_hash: HASH,
    next_validators_hash: HASH,
    consensus_hash: HASH,
    app_hash: HASH,
    last_results_hash: HASH,
    evidence_hash: HASH,
    proposer_address: PROPOSER,
  },
  data: { txs: ['CgQKAggB'] },
  evidence: { evidence: [] },
  last_commit: {
    height: '1233',
    round: 0,
    block_id: { hash: HASH, parts: { total: 1, hash: HASH } },
    signatures: [
      {
        block_id_flag: 2,
        validator_address: PROPOSER,
        timestamp: '2026-01-01T00:00:00.123456789Z',
        signature: 'c2ln',
      },
    ],
  },
};

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('protoTimestamp', () => {
  it('writes fractional seconds in groups of 3, 6 or 9 digits as protobuf JSON does', () => {
    expect(protoTimestamp('2026-01-01T00:00:01Z')).toBe('2026-01-01T00:00:01Z');
    expect(protoTimestamp('2026-01-01T00:00:01.5Z')).toBe('2026-01-01T00:00:01.500Z');
    expect(protoTimestamp('2026-01-01T00:00:01.000654458Z')).toBe('2026-01-01T00:00:01.000654458Z');
    expect(protoTimestamp('2026-01-01T00:00:01.12345Z')).toBe('2026-01-01T00:00:01.123450Z');
    expect(protoTimestamp('2026-01-01T00:00:01.1234567Z')).toBe('2026-01-01T00:00:01.123456700Z');
  });

  it('cuts to whole seconds for tx_response.timestamp', () => {
    expect(secondsTimestamp('2026-01-01T00:00:01.999999Z')).toBe('2026-01-01T00:00:01Z');
  });
});

describe('gatewayBlock', () => {
  it('turns hex hashes into base64, enums into names and keeps int64 as strings', () => {
    const block = gatewayBlock(cometBlock);
    expect(block.header).toMatchObject({
      version: { block: '11', app: '0' },
      height: '1234',
      time: '2026-01-01T00:00:01.500Z',
      last_block_id: { hash: b64(HASH), part_set_header: { total: 1, hash: b64(HASH) } },
      app_hash: b64(HASH),
      proposer_address: b64(PROPOSER),
    });
    expect(block.data).toEqual({ txs: ['CgQKAggB'] });
    expect(block.evidence).toEqual({ evidence: [] });
    expect(block.last_commit.signatures).toEqual([
      {
        block_id_flag: 'BLOCK_ID_FLAG_COMMIT',
        validator_address: b64(PROPOSER),
        timestamp: '2026-01-01T00:00:00.123456789Z',
        signature: 'c2ln',
      },
    ]);
  });

  it('renders the empty last block id of height 1 and empty tx lists as proto defaults', () => {
    const first = gatewayBlock({
      ...cometBlock,
      header: { ...cometBlock.header, last_block_id: { hash: '', parts: { total: 0, hash: '' } } },
      data: { txs: null },
    });
    expect(first.header.last_block_id).toEqual({ hash: '', part_set_header: { total: 0, hash: '' } });
    expect(first.data.txs).toEqual([]);
  });

  it('names the proposer by its bech32 consensus address in sdk_block', () => {
    expect(sdkBlock(cometBlock, 'init').header.proposer_address).toMatch(/^initvalcons1/);
  });
});

describe('txResponseJson', () => {
  it('renders the SDK TxResponse: upper hex data, @type on tx, second timestamps, explicit attributes', () => {
    const tx: TxRecord = {
      hash: 'AA',
      raw: 'CgQ=',
      index: 0,
      restTx: { body: {}, auth_info: {}, signatures: [] } as unknown as TxRecord['restTx'],
      result: {
        code: 0,
        data: Buffer.from([0x12, 0xab]).toString('base64'),
        log: '',
        info: '',
        gas_wanted: '200000',
        gas_used: '51234',
        events: [
          { type: 'tx' },
          { type: 'message', attributes: [{ key: 'action', value: '/x', index: true }] },
        ],
        codespace: '',
      },
    };
    expect(txResponseJson(tx, 7, '2026-01-01T00:00:07.000123Z')).toEqual({
      height: '7',
      txhash: 'AA',
      codespace: '',
      code: 0,
      data: '12AB',
      raw_log: '',
      logs: [],
      info: '',
      gas_wanted: '200000',
      gas_used: '51234',
      tx: { '@type': '/cosmos.tx.v1beta1.Tx', body: {}, auth_info: {}, signatures: [] },
      timestamp: '2026-01-01T00:00:07Z',
      events: [
        { type: 'tx', attributes: [] },
        { type: 'message', attributes: [{ key: 'action', value: '/x', index: true }] },
      ],
    });
  });
});
