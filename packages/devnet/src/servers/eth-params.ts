import { invalidParamsError } from './eth-errors.js';

/**
 * Arguments of EVM JSON-RPC methods, decoded the way geth's `rpc` package decodes them (positional params,
 * hexutil quantities, fixed-length hashes and addresses, block tags) with its error texts.
 */

export type BlockTag =
  | { kind: 'number'; number: number }
  | { kind: 'latest' }
  | { kind: 'earliest' }
  | { kind: 'pending' }
  | { kind: 'hash'; hash: string };

class ArgError extends Error {}

/** Positional arguments: at most `max`, the first `required` present. */
export function positional(params: unknown, max: number, required = 0): unknown[] {
  if (params === undefined || params === null) {
    if (required > 0) throw invalidParamsError('missing value for required argument 0');
    return [];
  }
  if (!Array.isArray(params)) throw invalidParamsError('non-array args');
  if (params.length > max) throw invalidParamsError(`too many arguments, want at most ${max}`);
  for (let i = 0; i < required; i += 1) {
    if (params[i] === undefined || params[i] === null)
      throw invalidParamsError(`missing value for required argument ${i}`);
  }
  return params;
}

/** Decodes argument `index` with `decode`, turning a decoding failure into geth's "invalid argument" error. */
export function arg<T>(params: unknown[], index: number, decode: (value: unknown) => T): T {
  try {
    return decode(params[index]);
  } catch (err) {
    if (err instanceof ArgError) throw invalidParamsError(`invalid argument ${index}: ${err.message}`);
    throw err;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function hexBody(value: unknown, goType: string): string {
  if (typeof value !== 'string')
    throw new ArgError(`json: cannot unmarshal non-string into Go value of type ${goType}`);
  if (!/^0x/i.test(value)) throw new ArgError('hex string without 0x prefix');
  return value.slice(2);
}

/** hexutil.Uint64 / Big: `0x`-prefixed, no leading zeros. */
export function quantity(value: unknown, goType = 'hexutil.Big'): bigint {
  const body = hexBody(value, goType);
  if (body === '') throw new ArgError('hex string "0x"');
  if (body.length > 1 && body.startsWith('0')) throw new ArgError('hex number with leading zero digits');
  if (!/^[0-9a-fA-F]+$/.test(body)) throw new ArgError('invalid hex string');
  if (goType !== 'hexutil.Big' && body.length > 16) throw new ArgError('hex number > 64 bits');
  return BigInt(`0x${body}`);
}

/** hexutil.Bytes: even-length hex. */
export function bytes(value: unknown): string {
  const body = hexBody(value, 'hexutil.Bytes');
  if (body.length % 2 !== 0) throw new ArgError('hex string of odd length');
  if (!/^[0-9a-fA-F]*$/.test(body)) throw new ArgError('invalid hex string');
  return `0x${body.toLowerCase()}`;
}

function fixed(value: unknown, hexLength: number, goType: string): string {
  const body = hexBody(value, goType);
  if (!/^[0-9a-fA-F]*$/.test(body)) throw new ArgError('invalid hex string');
  if (body.length !== hexLength)
    throw new ArgError(`hex string has length ${body.length}, want ${hexLength} for ${goType}`);
  return `0x${body.toLowerCase()}`;
}

export const hash = (value: unknown) => fixed(value, 64, 'common.Hash');
export const address = (value: unknown) => fixed(value, 40, 'common.Address');

export function bool(value: unknown): boolean {
  if (typeof value !== 'boolean')
    throw new ArgError(`json: cannot unmarshal ${jsonType(value)} into Go value of type bool`);
  return value;
}

/** `rpc.BlockNumber`: a tag or a hex number (at most int64). */
export function blockNumber(value: unknown): BlockTag {
  if (typeof value !== 'string')
    throw new ArgError(`json: cannot unmarshal ${jsonType(value)} into Go value of type rpc.BlockNumber`);
  switch (value) {
    case 'latest':
    case 'safe':
    case 'finalized':
      return { kind: 'latest' };
    case 'earliest':
      return { kind: 'earliest' };
    case 'pending':
      return { kind: 'pending' };
  }
  const n = quantity(value, 'hexutil.Uint64');
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new ArgError('block number larger than int64');
  return { kind: 'number', number: Number(n) };
}

/** `rpc.BlockNumberOrHash`: a tag, a number, a 32-byte hash, or the EIP-1898 object. */
export function blockNumberOrHash(value: unknown): BlockTag {
  if (typeof value === 'string' && value.length === 66) return { kind: 'hash', hash: hash(value) };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { blockHash, blockNumber: number } = value as { blockHash?: unknown; blockNumber?: unknown };
    if (blockHash !== undefined && number !== undefined) {
      throw new ArgError('cannot specify both BlockHash and BlockNumber, choose one or the other');
    }
    if (blockHash !== undefined) return { kind: 'hash', hash: hash(blockHash) };
    if (number !== undefined) return blockNumber(number);
    throw new ArgError('invalid block number or hash');
  }
  return blockNumber(value);
}

/** A value that may be absent: `undefined` and `null` give `fallback`. */
export const optional =
  <T>(decode: (value: unknown) => T, fallback: T) =>
  (value: unknown): T =>
    value === undefined || value === null ? fallback : decode(value);

export interface CallArgs {
  from?: string;
  to?: string;
  gas?: bigint;
  value?: bigint;
  data?: string;
}

/** `TransactionArgs` of eth_call / eth_estimateGas. */
export function callArgs(value: unknown): CallArgs {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ArgError(
      `json: cannot unmarshal ${jsonType(value)} into Go value of type types.TransactionArgs`,
    );
  }
  const args = value as Record<string, unknown>;
  const input = optional(bytes, undefined)(args.input);
  const data = optional(bytes, undefined)(args.data);
  if (input !== undefined && data !== undefined && input !== data) {
    throw new ArgError(
      'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
    );
  }
  return {
    from: optional(address, undefined)(args.from),
    to: optional(address, undefined)(args.to),
    gas: optional((v) => quantity(v, 'hexutil.Uint64'), undefined)(args.gas),
    value: optional(quantity, undefined)(args.value),
    data: input ?? data,
  };
}

export interface LogFilter {
  fromBlock?: BlockTag;
  toBlock?: BlockTag;
  blockHash?: string;
  addresses: string[];
  /** Per position: undefined = any, else one of. */
  topics: Array<string[] | undefined>;
}

/** `filters.FilterCriteria` of eth_getLogs. */
export function logFilter(value: unknown): LogFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ArgError(
      `json: cannot unmarshal ${jsonType(value)} into Go value of type filters.FilterCriteria`,
    );
  }
  const raw = value as Record<string, unknown>;
  const blockHash = optional(hash, undefined)(raw.blockHash);
  if (blockHash !== undefined && (raw.fromBlock != null || raw.toBlock != null)) {
    throw new ArgError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
  }
  const addresses =
    raw.address == null ? [] : Array.isArray(raw.address) ? raw.address.map(address) : [address(raw.address)];
  const topicsRaw = raw.topics == null ? [] : raw.topics;
  if (!Array.isArray(topicsRaw)) throw new ArgError('invalid topics');
  const topics = topicsRaw.map((topic) => {
    if (topic == null) return undefined;
    if (Array.isArray(topic)) {
      const options = topic.filter((t) => t != null).map(hash);
      return options.length === 0 ? undefined : options;
    }
    return [hash(topic)];
  });
  return {
    fromBlock: optional(blockNumber, undefined)(raw.fromBlock),
    toBlock: optional(blockNumber, undefined)(raw.toBlock),
    blockHash,
    addresses,
    topics,
  };
}

export interface TraceConfig {
  tracer?: string;
  onlyTopCall: boolean;
}

export function traceConfig(value: unknown): TraceConfig {
  if (value === undefined || value === null) return { onlyTopCall: false };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ArgError(`json: cannot unmarshal ${jsonType(value)} into Go value of type tracers.TraceConfig`);
  }
  const config = value as { tracer?: unknown; tracerConfig?: { onlyTopCall?: unknown } };
  return {
    tracer: typeof config.tracer === 'string' ? config.tracer : undefined,
    onlyTopCall: config.tracerConfig?.onlyTopCall === true,
  };
}

export const toQuantity = (n: bigint | number) => `0x${n.toString(16)}`;
