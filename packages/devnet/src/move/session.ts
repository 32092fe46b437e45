import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { bcs, concatBytes } from 'weft/chain/bcs.js';
import type { StateStore } from '../state/store.js';
import { canonicalHex, STD_ADDRESS } from './address.js';
import type { MoveEvent } from './events.js';

/** `std::error` categories: an abort code is `category << 16 | reason`. */
export const ErrorCategory = {
  INVALID_ARGUMENT: 0x1,
  OUT_OF_RANGE: 0x2,
  INVALID_STATE: 0x3,
  UNAUTHENTICATED: 0x4,
  PERMISSION_DENIED: 0x5,
  NOT_FOUND: 0x6,
  ALREADY_EXISTS: 0x8,
} as const;

/** A Move `abort` raised in a stdlib module (`0x1::<module>`). */
export class MoveAbort extends Error {
  override name = 'MoveAbort';
  readonly code: number;
  constructor(
    readonly module: string,
    category: number,
    reason: number,
  ) {
    const code = category * 0x10000 + reason;
    super(`VM aborted: location=${canonicalHex(STD_ADDRESS)}::${module}, code=${code}`);
    this.code = code;
  }
}

/** A failure before or outside user code (argument decoding, function resolution): movevm's `VM error`. */
export class MoveVmError extends Error {
  override name = 'MoveVmError';
  constructor(statusCode: string) {
    super(`VM error: status ${statusCode} of type Verification`);
  }
}

/** What one entry-function execution sees and produces. */
export interface MoveSession {
  store: StateStore;
  events: MoveEvent[];
  /** Addresses `account::create_object_account` registered (cosmos accounts the keeper creates after). */
  newAccounts: Uint8Array[];
  /** Handle of the next `table::new()`. */
  newTableHandle(): Uint8Array;
  emit(typeTag: string, data: MoveEvent['data']): void;
}

// movevm's table-handle domain separator (`UID_PREFIX` of the table natives).
const TABLE_UID_PREFIX = Uint8Array.of(0, 0, 0, 2);

/**
 * A session as initia's keeper sets one up: its id is sha256(tx ‖ execution counter), and table handles are
 * sha3-256(prefix ‖ session id ‖ index). The keeper hashes the raw tx bytes; the tx hash stands in for them here.
 */
export function createMoveSession(store: StateStore, txHash: string, executionCounter: bigint): MoveSession {
  const txBytes = txHash === '' ? new Uint8Array(32) : Buffer.from(txHash, 'hex');
  const counter = bcs.u64(executionCounter).reverse();
  const sessionId = sha256(concatBytes([txBytes, counter]));
  let tables = 0;
  const session: MoveSession = {
    store,
    events: [],
    newAccounts: [],
    newTableHandle() {
      const index = new Uint8Array(4);
      new DataView(index.buffer).setUint32(0, tables);
      tables += 1;
      return sha3_256(concatBytes([TABLE_UID_PREFIX, sessionId, index]));
    },
    emit(typeTag, data) {
      session.events.push({ typeTag, data });
    },
  };
  return session;
}
