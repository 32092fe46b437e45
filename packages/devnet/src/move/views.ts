import type { MoveViewCall } from '../node.js';
import type { StateReader } from '../state/store.js';
import { canonicalHex, parseMoveAddress, STD_ADDRESS } from './address.js';
import { type ArgValue, decodeArgs, type ParamType } from './args.js';
import { addressToObject } from './object.js';
import { hasResource, normalizeStructTag } from './resources.js';
import { ErrorCategory, MoveAbort, MoveVmError } from './session.js';
import { moveState } from './state.js';

/**
 * The `#[view]` functions of the modules the devnet simulates, run as movevm runs a view: the call
 * resolved, its args decoded (BCS or JSON) and its `Object<T>` args built, then the body over the state.
 * A view's result is movevm's `serialize_response_to_json`: the JSON of its one return value, the JSON list
 * of several, nothing for none.
 */

export interface ViewFunction {
  typeParams: number;
  params: readonly ParamType[];
  /**
   * The `T` of the function's `Object<T>` params when it is a fixed struct; a generic `Object<T>` (the
   * default) takes the call's first type argument.
   */
  objectType?: string;
  run(state: StateReader, args: ArgValue[]): unknown[];
}

/** The views of the modules published at one address, keyed `module::function`. */
export type ViewTable = Readonly<Record<string, ViewFunction>>;

const ECOLLECTION_DOES_NOT_EXIST = 1;

const STD_VIEWS: ViewTable = {
  // `collection::name<T: key>(collection: Object<T>): String`; `borrow` asserts the Collection is there.
  'collection::name': {
    typeParams: 1,
    params: ['object'],
    run(state, [collection]) {
      const record = moveState.collection(state, collection as Uint8Array);
      if (!record) throw new MoveAbort('collection', ErrorCategory.NOT_FOUND, ECOLLECTION_DOES_NOT_EXIST);
      return [record.name];
    },
  },
};

/**
 * Runs a view of the modules in `table`: a module the table does not have is not published there (the
 * loader's `LINKER_ERROR`), a function its module does not have fails to resolve.
 */
export function runTableView(state: StateReader, table: ViewTable, call: MoveViewCall): string {
  const fn = table[`${call.moduleName}::${call.functionName}`];
  if (!fn) {
    const published = Object.keys(table).some((key) => key.startsWith(`${call.moduleName}::`));
    throw new MoveVmError(published ? 'FUNCTION_RESOLUTION_FAILURE' : 'LINKER_ERROR');
  }
  if (call.typeArgs.length !== fn.typeParams) throw new MoveVmError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH');
  if (call.typeArgs.some((t) => normalizeStructTag(t) === undefined))
    throw new MoveVmError('TYPE_RESOLUTION_FAILURE');
  const args = decodeArgs(fn.params, call.args);
  const objectType = fn.objectType ?? call.typeArgs[0] ?? '';
  fn.params.forEach((type, i) => {
    if (type === 'object')
      addressToObject(state, args[i] as Uint8Array, (a) => hasResource(state, a, objectType));
  });
  const results = fn.run(state, args);
  if (results.length === 0) return '';
  return JSON.stringify(results.length === 1 ? results[0] : results);
}

/** Runs a view of the simulated `0x1` modules; throws the VM's error or abort as initia's querier reports it. */
export function runView(state: StateReader, call: MoveViewCall, prefix: string): string {
  const moduleAddress = parseMoveAddress(call.address, prefix);
  if (canonicalHex(moduleAddress) !== canonicalHex(STD_ADDRESS)) throw new MoveVmError('LINKER_ERROR');
  return runTableView(state, STD_VIEWS, call);
}
