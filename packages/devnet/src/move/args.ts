import { hexToBytes } from 'weft/chain/address.js';
import { BcsError, type BcsReader, bcsReader, readBigDecimal } from 'weft/chain/bcs.js';
import { padMoveAddress } from './address.js';
import { parseDecimal } from './bigdecimal.js';
import { MoveVmError } from './session.js';

/**
 * Entry-function arguments: `MsgExecute` carries each as BCS bytes, `MsgExecuteJSON` as a JSON string
 * (u64 as a decimal string, addresses and objects as `0x` hex, `Option` as null or the value).
 */

export type ParamType =
  | 'bool'
  | 'u64'
  | 'string'
  | 'address'
  /** `Object<T>`: an address, checked against the type argument when the call is built. */
  | 'object'
  | 'bigdecimal'
  | 'option<u64>'
  | 'option<address>';

export type ArgValue = boolean | bigint | string | Uint8Array | undefined;

const fail = (): never => {
  throw new MoveVmError('FAILED_TO_DESERIALIZE_ARGUMENT');
};

function readBcs(r: BcsReader, type: ParamType): ArgValue {
  switch (type) {
    case 'bool':
      return r.bool();
    case 'u64':
      return r.u64();
    case 'string':
      return r.string();
    case 'address':
    case 'object':
      return r.address();
    case 'bigdecimal':
      return readBigDecimal(r);
    case 'option<u64>':
      return r.option((x) => x.u64());
    case 'option<address>':
      return r.option((x) => x.address());
  }
}

function fromBcs(bytes: Uint8Array, type: ParamType): ArgValue {
  try {
    const r = bcsReader(bytes);
    const value = readBcs(r, type);
    if (r.remaining !== 0) fail();
    return value;
  } catch (err) {
    if (err instanceof BcsError) fail();
    throw err;
  }
}

const U64_MAX = 2n ** 64n - 1n;

function jsonU64(v: unknown): bigint {
  const text = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof text !== 'string' || !/^\d+$/.test(text)) return fail();
  const n = BigInt(text);
  return n > U64_MAX ? fail() : n;
}

function jsonAddress(v: unknown): Uint8Array {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) return fail();
  const hex = v.slice(2);
  return padMoveAddress(hexToBytes(hex.length % 2 === 1 ? `0${hex}` : hex));
}

function fromJson(text: string, type: ParamType): ArgValue {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return fail();
  }
  switch (type) {
    case 'bool':
      return typeof v === 'boolean' ? v : fail();
    case 'u64':
      return jsonU64(v);
    case 'string':
      return typeof v === 'string' ? v : fail();
    case 'address':
    case 'object':
      return jsonAddress(v);
    case 'bigdecimal': {
      const scaled = typeof v === 'string' ? parseDecimal(v) : undefined;
      return scaled ?? fail();
    }
    case 'option<u64>':
      return v === null ? undefined : jsonU64(v);
    case 'option<address>':
      return v === null ? undefined : jsonAddress(v);
  }
}

/** Decodes every argument of a call; the VM rejects a wrong count before it reads any. */
export function decodeArgs(params: readonly ParamType[], args: readonly (Uint8Array | string)[]): ArgValue[] {
  if (args.length !== params.length) throw new MoveVmError('NUMBER_OF_ARGUMENTS_MISMATCH');
  return params.map((type, i) => {
    const arg = args[i]!;
    return typeof arg === 'string' ? fromJson(arg, type) : fromBcs(arg, type);
  });
}
