import {
  CALLS_FORMAT_2,
  type CallFrame,
  createCallPacker2,
  decodeCalls2,
  encodeCalls2,
} from './formats/calls-2.js';
import { malformed, StoredValueError, unknownFormat } from './formats/stored-value-error.js';

export type { CallFrame };

/**
 * An EVM tx's call frames as stored: one value per tx (a row of `evm_internal_tx_pack`), its first byte
 * its format. Each format is a file of `formats/` that does not change; 2 (`calls-2.ts`) is the one
 * written now and the only one so far. A read takes the format the value names; a byte no format has
 * is an error (`WEFT_ERR_STORE_FORMAT_UNKNOWN`).
 */
export const encodeCalls = (frames: readonly CallFrame[]): Buffer => encodeCalls2(frames);

/** The frames back, their byte fields views into one buffer. */
export function decodeCalls(stored: Uint8Array): CallFrame[] {
  const view = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (view[0] !== CALLS_FORMAT_2) throw unknownFormat('call frames', view[0]);
  try {
    return decodeCalls2(view);
  } catch (err) {
    throw err instanceof StoredValueError ? err : malformed('call frames', 'do not inflate', err);
  }
}

/** Groups frames into the rows of `evm_internal_tx_pack`, in the format written now. */
export const createCallPacker = createCallPacker2;
