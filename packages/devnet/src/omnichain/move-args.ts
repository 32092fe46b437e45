import { bcsReader } from 'weft/chain/bcs.js';
import { MoveVmError } from '../move/session.js';

/** The parameter types of the omnichain entry functions (a few more than the NFT modules need). */
export type OmniParam = 'u32' | 'u64' | 'bool' | 'address' | 'vector<u8>';
export type OmniArg = number | bigint | boolean | Uint8Array;

const fail = (): never => {
  throw new MoveVmError('FAILED_TO_DESERIALIZE_ARGUMENT');
};

function fromBcs(type: OmniParam, bytes: Uint8Array): OmniArg {
  const r = bcsReader(bytes);
  let value: OmniArg;
  switch (type) {
    case 'u32': {
      const b = r.bytes(4);
      value = (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
      break;
    }
    case 'u64':
      value = r.u64();
      break;
    case 'bool':
      value = r.bool();
      break;
    case 'address':
      value = r.address();
      break;
    default:
      value = r.byteVector();
  }
  if (r.remaining !== 0) fail();
  return value;
}

const hexBytes = (text: string, length?: number) => {
  let hex = text.startsWith('0x') ? text.slice(2) : text;
  // Addresses may be short (`0x1`); byte vectors are whole bytes.
  if (length !== undefined && hex.length % 2 === 1) hex = `0${hex}`;
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) fail();
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  if (length === undefined) return bytes;
  if (bytes.length > length) fail();
  const out = new Uint8Array(length);
  out.set(bytes, length - bytes.length);
  return out;
};

/** `MsgExecuteJSON`: u32 as a number, u64 as a decimal string, bytes and addresses as hex strings. */
function fromJson(type: OmniParam, text: string): OmniArg {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail();
  }
  switch (type) {
    case 'u32':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 2 ** 32
        ? value
        : fail();
    case 'u64':
      return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : fail();
    case 'bool':
      return typeof value === 'boolean' ? value : fail();
    case 'address':
      return typeof value === 'string' ? hexBytes(value, 32) : fail();
    default:
      return typeof value === 'string' ? hexBytes(value) : fail();
  }
}

export function decodeOmniArgs(params: readonly OmniParam[], args: Array<Uint8Array | string>): OmniArg[] {
  if (args.length !== params.length) throw new MoveVmError('NUMBER_OF_ARGUMENTS_MISMATCH');
  return params.map((type, i) => {
    const arg = args[i]!;
    try {
      return typeof arg === 'string' ? fromJson(type, arg) : fromBcs(type, arg);
    } catch (err) {
      if (err instanceof MoveVmError) throw err;
      return fail();
    }
  });
}
