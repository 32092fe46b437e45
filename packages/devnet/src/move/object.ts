import { hexToBytes } from 'weft/chain/address.js';
import type { StateReader } from '../state/store.js';
import { canonicalHex, toHexLiteral } from './address.js';
import { ErrorCategory, MoveAbort, type MoveSession } from './session.js';
import { moveState } from './state.js';

/** `0x1::object`: object creation, ownership walks, transfers and deletion, with its abort codes. */

const EOBJECT_EXISTS = 1;
const EOBJECT_DOES_NOT_EXIST = 2;
const ENO_UNGATED_TRANSFERS = 3;
const ENOT_OBJECT_OWNER = 4;
const EMAXIMUM_NESTING = 6;
const ERESOURCE_DOES_NOT_EXIST = 7;
const MAXIMUM_OBJECT_NESTING = 8;

const abort = (category: number, reason: number) => new MoveAbort('object', category, reason);

/** `create_object_internal`: the ObjectCore (version bumped past a tombstone) and its `CreateEvent`. */
export function createObject(session: MoveSession, owner: Uint8Array, object: Uint8Array): string {
  const { store } = session;
  session.newAccounts.push(object);
  if (moveState.object(store, object)) throw abort(ErrorCategory.ALREADY_EXISTS, EOBJECT_EXISTS);
  const tombstone = moveState.tombstone(store, object);
  const version = tombstone === undefined ? '1' : (BigInt(tombstone) + 1n).toString();
  if (tombstone !== undefined) moveState.setTombstone(store, object, undefined);
  moveState.setObject(store, object, { owner: canonicalHex(owner), allowUngatedTransfer: true, version });
  session.emit('0x1::object::CreateEvent', {
    object: toHexLiteral(object),
    owner: toHexLiteral(owner),
    version,
  });
  return version;
}

/** `object::owner`, aborting when there is no object. */
export function objectOwner(session: MoveSession, object: Uint8Array): Uint8Array {
  const core = moveState.object(session.store, object);
  if (!core) throw abort(ErrorCategory.NOT_FOUND, EOBJECT_DOES_NOT_EXIST);
  return hexToBytes(core.owner);
}

/** `object::owns`: direct or through a chain of owning objects. */
export function owns(session: MoveSession, object: Uint8Array, owner: Uint8Array): boolean {
  const direct = canonicalHex(objectOwner(session, object));
  const target = canonicalHex(owner);
  if (canonicalHex(object) === target) return true;
  let current = direct;
  let count = 0;
  while (current !== target) {
    count += 1;
    if (count >= MAXIMUM_OBJECT_NESTING) throw abort(ErrorCategory.OUT_OF_RANGE, EMAXIMUM_NESTING);
    const core = moveState.object(session.store, hexToBytes(current));
    if (!core) return false;
    current = core.owner;
  }
  return true;
}

function verifyUngatedAndDescendant(session: MoveSession, owner: Uint8Array, destination: Uint8Array): void {
  const core = moveState.object(session.store, destination);
  if (!core) throw abort(ErrorCategory.NOT_FOUND, EOBJECT_DOES_NOT_EXIST);
  if (!core.allowUngatedTransfer) throw abort(ErrorCategory.PERMISSION_DENIED, ENO_UNGATED_TRANSFERS);
  const target = canonicalHex(owner);
  let current = core.owner;
  let count = 0;
  while (current !== target) {
    count += 1;
    if (count >= MAXIMUM_OBJECT_NESTING) throw abort(ErrorCategory.OUT_OF_RANGE, EMAXIMUM_NESTING);
    const parent = moveState.object(session.store, hexToBytes(current));
    // The first object exists, so a missing parent means the owner is an account, not the signer.
    if (!parent) throw abort(ErrorCategory.PERMISSION_DENIED, ENOT_OBJECT_OWNER);
    if (!parent.allowUngatedTransfer) throw abort(ErrorCategory.PERMISSION_DENIED, ENO_UNGATED_TRANSFERS);
    current = parent.owner;
  }
}

/** `object::transfer_raw`: no event when the object already belongs to `to`. */
export function transferRaw(
  session: MoveSession,
  owner: Uint8Array,
  object: Uint8Array,
  to: Uint8Array,
): void {
  verifyUngatedAndDescendant(session, owner, object);
  const core = moveState.object(session.store, object)!;
  if (core.owner === canonicalHex(to)) return;
  session.emit('0x1::object::TransferEvent', {
    object: toHexLiteral(object),
    from: toHexLiteral(hexToBytes(core.owner)),
    to: toHexLiteral(to),
  });
  moveState.setObject(session.store, object, { ...core, owner: canonicalHex(to) });
}

/** `object::delete`: leaves a tombstone so a re-created object gets the next version. */
export function deleteObject(session: MoveSession, object: Uint8Array): void {
  const core = moveState.object(session.store, object);
  if (!core) throw abort(ErrorCategory.NOT_FOUND, EOBJECT_DOES_NOT_EXIST);
  moveState.setObject(session.store, object, undefined);
  moveState.setTombstone(session.store, object, core.version);
  session.emit('0x1::object::DeleteEvent', {
    object: toHexLiteral(object),
    owner: toHexLiteral(hexToBytes(core.owner)),
  });
}

/**
 * `object::address_to_object<T>`, which the VM runs to build an `Object<T>` argument of an entry function or a
 * view: the object must exist and hold a `T`.
 */
export function addressToObject(
  state: StateReader,
  object: Uint8Array,
  holds: (address: Uint8Array) => boolean,
): Uint8Array {
  if (!moveState.object(state, object)) throw abort(ErrorCategory.NOT_FOUND, EOBJECT_DOES_NOT_EXIST);
  if (!holds(object)) throw abort(ErrorCategory.NOT_FOUND, ERESOURCE_DOES_NOT_EXIST);
  return object;
}
