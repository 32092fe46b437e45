import type { Auth } from '../state/auth.js';
import type { StateStore } from '../state/store.js';
import { type AbciEvent, type GasMeter, TxError } from '../types.js';
import { canonicalHex, moveToAccAddress, STD_ADDRESS, vmAddressString } from './address.js';
import { type ArgValue, decodeArgs, type ParamType } from './args.js';
import { executeEvent, moveCosmosEvent } from './events.js';
import { addressToObject, transferRaw } from './object.js';
import { hasResource, normalizeStructTag } from './resources.js';
import { createMoveSession, MoveAbort, type MoveSession, MoveVmError } from './session.js';
import { moveState } from './state.js';
import { burn, createCollection, mint, setCollectionField, setNftField } from './token.js';

/** One entry-function call, as `MsgExecute`/`MsgExecuteJSON` (or a keeper) makes it. */
export interface EntryCall {
  /** 32-byte Move addresses of the signers. */
  senders: Uint8Array[];
  moduleAddress: Uint8Array;
  moduleName: string;
  functionName: string;
  typeArgs: string[];
  /** BCS bytes (`MsgExecute`) or JSON strings (`MsgExecuteJSON`). */
  args: Array<Uint8Array | string>;
}

export interface ExecutionContext {
  store: StateStore;
  txHash: string;
  gas?: GasMeter;
}

export interface MoveExecutor {
  /**
   * Runs the call as initia's keeper does: writes are kept only when it succeeds; the result is the `execute`
   * event followed by one `move` event per emitted Move event. Failures throw `TxError`.
   */
  execute(ctx: ExecutionContext, call: EntryCall): AbciEvent[];
}

interface EntryFunction {
  typeParams: number;
  params: readonly ParamType[];
  run(session: MoveSession, signer: Uint8Array, args: ArgValue[]): void;
}

const str = (v: ArgValue) => v as string;
const bool = (v: ArgValue) => v as boolean;
const address = (v: ArgValue) => v as Uint8Array;

const setNft =
  (field: 'uri' | 'description'): EntryFunction['run'] =>
  (s, signer, [nft, value]) =>
    setNftField(s, signer, address(nft), field, str(value));
const setCollection =
  (field: 'uri' | 'description'): EntryFunction['run'] =>
  (s, signer, [collection, value]) =>
    setCollectionField(s, signer, address(collection), field, str(value));

/** The simulated `0x1` entry functions, keyed `module::function`, with their real parameter lists. */
const ENTRY_FUNCTIONS: Record<string, EntryFunction> = {
  'initia_nft::create_collection': {
    typeParams: 0,
    params: [
      'string',
      'option<u64>',
      'string',
      'string',
      'bool',
      'bool',
      'bool',
      'bool',
      'bool',
      'bigdecimal',
    ],
    run(s, signer, a) {
      createCollection(s, signer, {
        description: str(a[0]),
        maxSupply: a[1] as bigint | undefined,
        name: str(a[2]),
        uri: str(a[3]),
        mutableDescription: bool(a[4]),
        mutableRoyalty: bool(a[5]),
        mutableUri: bool(a[6]),
        mutableNftDescription: bool(a[7]),
        mutableNftUri: bool(a[8]),
        royalty: a[9] as bigint,
      });
    },
  },
  'initia_nft::mint': {
    typeParams: 0,
    params: ['string', 'string', 'string', 'string', 'bool', 'option<address>'],
    run(s, signer, a) {
      mint(s, signer, {
        collection: str(a[0]),
        description: str(a[1]),
        tokenId: str(a[2]),
        uri: str(a[3]),
        canBurn: bool(a[4]),
        to: a[5] as Uint8Array | undefined,
      });
    },
  },
  'initia_nft::burn': {
    typeParams: 1,
    params: ['object'],
    run: (s, signer, [nft]) => burn(s, signer, address(nft)),
  },
  'initia_nft::set_uri': { typeParams: 1, params: ['object', 'string'], run: setNft('uri') },
  'initia_nft::set_description': { typeParams: 1, params: ['object', 'string'], run: setNft('description') },
  'initia_nft::set_collection_uri': {
    typeParams: 1,
    params: ['object', 'string'],
    run: setCollection('uri'),
  },
  'initia_nft::set_collection_description': {
    typeParams: 1,
    params: ['object', 'string'],
    run: setCollection('description'),
  },
  'object::transfer_call': {
    typeParams: 0,
    params: ['address', 'address'],
    run: (s, signer, [object, to]) => transferRaw(s, signer, address(object), address(to)),
  },
  'object::transfer': {
    typeParams: 1,
    params: ['object', 'address'],
    run: (s, signer, [object, to]) => transferRaw(s, signer, address(object), address(to)),
  },
};

const SIMULATED_MODULES = new Set(Object.keys(ENTRY_FUNCTIONS).map((k) => k.split('::')[0]!));

// A flat charge per call plus per event, in the range movevm meters for these functions.
const BASE_GAS = 30_000n;
const GAS_PER_EVENT = 4_000n;

function resolve(call: EntryCall): EntryFunction {
  if (
    canonicalHex(call.moduleAddress) !== canonicalHex(STD_ADDRESS) ||
    !SIMULATED_MODULES.has(call.moduleName)
  ) {
    throw new MoveVmError('LINKER_ERROR');
  }
  const fn = ENTRY_FUNCTIONS[`${call.moduleName}::${call.functionName}`];
  if (!fn) throw new MoveVmError('FUNCTION_RESOLUTION_FAILURE');
  if (call.typeArgs.length !== fn.typeParams) throw new MoveVmError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH');
  if (call.typeArgs.some((t) => normalizeStructTag(t) === undefined))
    throw new MoveVmError('TYPE_RESOLUTION_FAILURE');
  if (call.senders.length !== 1) throw new MoveVmError('NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH');
  return fn;
}

export function createMoveExecutor(options: { prefix: string; auth?: Pick<Auth, 'ensure'> }): MoveExecutor {
  return {
    execute(ctx, call) {
      const { store } = ctx;
      const session = createMoveSession(store, ctx.txHash, moveState.nextExecution(store));
      store.checkpoint();
      try {
        const fn = resolve(call);
        const args = decodeArgs(fn.params, call.args);
        fn.params.forEach((type, i) => {
          if (type === 'object') {
            addressToObject(store, args[i] as Uint8Array, (a) => hasResource(store, a, call.typeArgs[0]!));
          }
        });
        fn.run(session, call.senders[0]!, args);
      } catch (err) {
        store.revert();
        ctx.gas?.consume(BASE_GAS, 'move runtime');
        if (err instanceof MoveAbort || err instanceof MoveVmError)
          throw new TxError('undefined', 1, err.message);
        throw err;
      }
      store.commit();
      ctx.gas?.consume(BASE_GAS + GAS_PER_EVENT * BigInt(session.events.length), 'move runtime');
      for (const account of session.newAccounts)
        options.auth?.ensure(store, moveToAccAddress(account, options.prefix));
      return [
        executeEvent({
          sender: call.senders.map(vmAddressString).join(','),
          moduleAddr: vmAddressString(call.moduleAddress),
          moduleName: call.moduleName,
          functionName: call.functionName,
        }),
        ...session.events.map(moveCosmosEvent),
      ];
    },
  };
}
