import { describe, expect, it } from 'vitest';
import { EthRpcError } from './eth-errors.js';
import {
  address,
  arg,
  blockNumber,
  blockNumberOrHash,
  bytes,
  callArgs,
  logFilter,
  positional,
  quantity,
  traceConfig,
} from './eth-params.js';

/** The geth error an argument decoder gives at position 0. */
function argError(decode: (value: unknown) => unknown, value: unknown): { code: number; message: string } {
  try {
    arg([value], 0, decode);
  } catch (err) {
    if (err instanceof EthRpcError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected an error');
}

const HASH = `0x${'ab'.repeat(32)}`;

describe('block tags', () => {
  it('parses tags and hex numbers', () => {
    expect(blockNumber('latest')).toEqual({ kind: 'latest' });
    expect(blockNumber('safe')).toEqual({ kind: 'latest' });
    expect(blockNumber('finalized')).toEqual({ kind: 'latest' });
    expect(blockNumber('pending')).toEqual({ kind: 'pending' });
    expect(blockNumber('earliest')).toEqual({ kind: 'earliest' });
    expect(blockNumber('0x4d2')).toEqual({ kind: 'number', number: 1234 });
    expect(blockNumber('0x0')).toEqual({ kind: 'number', number: 0 });
  });

  it('rejects malformed numbers with geth texts', () => {
    expect(argError(blockNumber, '1234')).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string without 0x prefix',
    });
    expect(argError(blockNumber, '0x04')).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex number with leading zero digits',
    });
    expect(argError(blockNumber, '0xzz').message).toBe('invalid argument 0: invalid hex string');
    expect(argError(blockNumber, '0x').message).toBe('invalid argument 0: hex string "0x"');
    expect(argError(blockNumber, 12).message).toBe(
      'invalid argument 0: json: cannot unmarshal number into Go value of type rpc.BlockNumber',
    );
  });

  it('takes hashes and EIP-1898 objects where a block number or hash is allowed', () => {
    expect(blockNumberOrHash(HASH)).toEqual({ kind: 'hash', hash: HASH });
    expect(blockNumberOrHash({ blockHash: HASH.toUpperCase().replace('0X', '0x') })).toEqual({
      kind: 'hash',
      hash: HASH,
    });
    expect(blockNumberOrHash({ blockNumber: '0x5' })).toEqual({ kind: 'number', number: 5 });
    expect(blockNumberOrHash('latest')).toEqual({ kind: 'latest' });
  });
});

describe('positional arguments', () => {
  it('checks counts as geth does', () => {
    expect(() => positional(['latest', false, 1], 2, 2)).toThrow('too many arguments, want at most 2');
    expect(() => positional(['latest'], 2, 2)).toThrow('missing value for required argument 1');
    expect(() => positional({ a: 1 }, 2)).toThrow('non-array args');
    expect(positional(undefined, 2)).toEqual([]);
  });
});

describe('values', () => {
  it('decodes quantities, bytes and fixed-length hex', () => {
    expect(quantity('0xde0b6b3a7640000')).toBe(10n ** 18n);
    expect(bytes('0xABcd')).toBe('0xabcd');
    expect(argError(bytes, '0xabc').message).toBe('invalid argument 0: hex string of odd length');
    expect(address(`0x${'AB'.repeat(20)}`)).toBe(`0x${'ab'.repeat(20)}`);
    expect(argError(address, '0xabcd').message).toBe(
      'invalid argument 0: hex string has length 4, want 40 for common.Address',
    );
  });

  it('decodes call args and refuses different data and input', () => {
    expect(callArgs({ to: `0x${'11'.repeat(20)}`, input: '0x70a08231', value: '0x1' })).toEqual({
      from: undefined,
      to: `0x${'11'.repeat(20)}`,
      gas: undefined,
      value: 1n,
      data: '0x70a08231',
    });
    expect(argError(callArgs, { data: '0x01', input: '0x02' }).message).toContain(
      'both "data" and "input" are set',
    );
  });

  it('decodes log filters: single or many addresses, null and list topics', () => {
    const filter = logFilter({
      fromBlock: '0x1',
      toBlock: 'latest',
      address: `0x${'11'.repeat(20)}`,
      topics: [HASH, null, [HASH, HASH]],
    });
    expect(filter.addresses).toEqual([`0x${'11'.repeat(20)}`]);
    expect(filter.topics).toEqual([[HASH], undefined, [HASH, HASH]]);
    expect(filter.fromBlock).toEqual({ kind: 'number', number: 1 });
    expect(argError(logFilter, { blockHash: HASH, fromBlock: '0x1' }).message).toContain(
      'cannot specify both BlockHash',
    );
  });

  it('reads the tracer and onlyTopCall from a trace config', () => {
    expect(traceConfig({ tracer: 'callTracer', tracerConfig: { onlyTopCall: true } })).toEqual({
      tracer: 'callTracer',
      onlyTopCall: true,
    });
    expect(traceConfig(undefined)).toEqual({ onlyTopCall: false });
  });
});
