import { bytesToHex, fromBech32 } from 'weft/chain/address.js';
import { event } from '../events.js';
import type { Auth } from '../state/auth.js';
import type { StateReader, StateStore } from '../state/store.js';
import { type AbciEvent, type GasMeter, TxError } from '../types.js';
import { contractAddress } from './address.js';
import { type Contract, type ContractEnv, ContractError, type ContractResponse } from './contract.js';
import { createCw721Contract } from './cw721.js';
import { createReceiverContract } from './receiver.js';

/**
 * wasmd's keeper over the simulated contracts: classic contract addresses from a global instance sequence,
 * contract info, the `instantiate`/`execute`/`wasm` events in wasmd's order, dispatch of `WasmMsg::Execute`
 * sub-messages, and wasmd's registered errors.
 */

export type CodeKind = 'cw721-base' | 'cw721-receiver';

/** Code ids stored at genesis. */
export const CW721_CODE_ID = 1n;
export const RECEIVER_CODE_ID = 2n;
export const DEFAULT_CODES: Record<string, CodeKind> = {
  [CW721_CODE_ID.toString()]: 'cw721-base',
  [RECEIVER_CODE_ID.toString()]: 'cw721-receiver',
};

interface ContractRecord {
  codeId: string;
  creator: string;
  admin: string;
  label: string;
  created: { blockHeight: string; txIndex: string };
}

/** Where a contract call runs. */
export interface WasmCallContext {
  store: StateStore;
  height: number;
  timeMs: number;
  txIndex: number;
  gas?: GasMeter;
}

export interface InstantiateParams {
  codeId: bigint;
  creator: string;
  admin?: string;
  label: string;
  msg: unknown;
}

export interface WasmKeeper {
  /** The address the next instantiation will get (for moving funds to it first). */
  nextAddress(state: StateReader, codeId: bigint): string;
  instantiate(ctx: WasmCallContext, p: InstantiateParams): { address: string; events: AbciEvent[] };
  execute(ctx: WasmCallContext, p: { contract: string; sender: string; msg: unknown }): AbciEvent[];
  /** Smart query; throws TxError `wasm` 9 with the contract's message, or `wasm` 22 for no contract. */
  query(
    state: StateReader,
    env: { height: number; timeNanos: bigint },
    contract: string,
    msg: unknown,
  ): unknown;
  /** `contract_info` of `/cosmwasm/wasm/v1/contract/{addr}`. */
  contractInfo(state: StateReader, contract: string): Record<string, unknown> | undefined;
  codeKind(state: StateReader, contract: string): CodeKind | undefined;
  /**
   * Serves `address` with a module of the chain instead of a stored contract (the ICS-721 contract, whose
   * port is bound to the chain's IBC): its executes and smart queries go to `native`.
   */
  bindNative(address: string, native: NativeContract): void;
}

export interface NativeContract {
  execute(ctx: WasmCallContext, sender: string, msg: unknown): AbciEvent[];
  query(state: StateReader, msg: unknown): unknown;
}

const INSTANCE_SEQUENCE = 'wasm/seq/instance';
const hexOf = (address: string) => bytesToHex(fromBech32(address).bytes);
const contractKey = (address: string) => `wasm/contract/${hexOf(address)}`;
/** Each contract's own storage lives under this prefix. */
const storeBase = (address: string) => `wasm/s/${hexOf(address)}`;

// Roughly what wasmd charges for setup plus a small cw721 call.
const SETUP_GAS = 60_000n;
const GAS_PER_ATTRIBUTE = 140n;

export function createWasmKeeper(options: {
  prefix: string;
  codes?: Record<string, CodeKind>;
  auth?: Pick<Auth, 'ensure'>;
}): WasmKeeper {
  const { prefix } = options;
  const codes = options.codes ?? DEFAULT_CODES;
  const contracts: Record<CodeKind, Contract> = {
    'cw721-base': createCw721Contract(),
    'cw721-receiver': createReceiverContract(),
  };

  const record = (state: StateReader, address: string): ContractRecord | undefined => {
    let key: string;
    try {
      key = contractKey(address);
    } catch {
      return undefined;
    }
    const raw = state.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as ContractRecord);
  };

  const noSuchContract = (address: string) => new TxError('wasm', 22, `address ${address}: no such contract`);

  const contractEnv = (address: string, height: number, timeNanos: bigint): ContractEnv => ({
    contract: address,
    height,
    timeNanos,
    validateAddress(input) {
      try {
        const decoded = fromBech32(input);
        if (decoded.prefix !== prefix)
          throw new Error(`invalid Bech32 prefix; expected ${prefix}, got ${decoded.prefix}`);
      } catch (err) {
        throw new ContractError(`Generic error: addr_validate errored: ${(err as Error).message}`);
      }
      return input;
    },
  });

  /** The `wasm` event (only when there are attributes), then each dispatched message's events. */
  const handleResponse = (ctx: WasmCallContext, address: string, res: ContractResponse): AbciEvent[] => {
    ctx.gas?.consume(GAS_PER_ATTRIBUTE * BigInt(res.attributes.length), 'Custom contract event attributes');
    const events: AbciEvent[] = [];
    if (res.attributes.length > 0) {
      const e = event('wasm', { _contract_address: address });
      for (const [key, value] of res.attributes)
        e.attributes.push({ key: key.trim(), value: value.trim(), index: true });
      events.push(e);
    }
    for (const sub of res.messages)
      events.push(...execute(ctx, { contract: sub.contract, sender: address, msg: sub.msg }));
    return events;
  };

  const natives = new Map<string, NativeContract>();
  const execute: WasmKeeper['execute'] = (ctx, p) => {
    const native = natives.get(p.contract);
    if (native) {
      try {
        return [event('execute', { _contract_address: p.contract }), ...native.execute(ctx, p.sender, p.msg)];
      } catch (err) {
        if (err instanceof ContractError)
          throw new TxError('wasm', 5, `${err.message}: execute wasm contract failed`);
        throw err;
      }
    }
    const info = record(ctx.store, p.contract);
    if (!info) throw noSuchContract(p.contract);
    ctx.gas?.consume(SETUP_GAS, 'Loading CosmWasm module: execute');
    const contract = contracts[codes[info.codeId]!];
    const env = contractEnv(p.contract, ctx.height, BigInt(ctx.timeMs) * 1_000_000n);
    let res: ContractResponse;
    try {
      res = contract.execute(ctx.store, storeBase(p.contract), env, p.sender, p.msg);
    } catch (err) {
      if (err instanceof ContractError)
        throw new TxError('wasm', 5, `${err.message}: execute wasm contract failed`);
      throw err;
    }
    return [event('execute', { _contract_address: p.contract }), ...handleResponse(ctx, p.contract, res)];
  };

  const keeper: WasmKeeper = {
    nextAddress(state, codeId) {
      const next = BigInt(state.get(INSTANCE_SEQUENCE) ?? '0') + 1n;
      return contractAddress(prefix, codeId, next);
    },

    instantiate(ctx, p) {
      const kind = codes[p.codeId.toString()];
      if (!kind) throw new TxError('wasm', 28, `code id ${p.codeId}: no such code`);
      ctx.gas?.consume(SETUP_GAS, 'Loading CosmWasm module: instantiate');
      const address = keeper.nextAddress(ctx.store, p.codeId);
      ctx.store.set(INSTANCE_SEQUENCE, (BigInt(ctx.store.get(INSTANCE_SEQUENCE) ?? '0') + 1n).toString());
      options.auth?.ensure(ctx.store, address);
      const env = contractEnv(address, ctx.height, BigInt(ctx.timeMs) * 1_000_000n);
      let res: ContractResponse;
      try {
        res = contracts[kind].instantiate(ctx.store, storeBase(address), env, p.creator, p.msg);
      } catch (err) {
        if (err instanceof ContractError) {
          throw new TxError('wasm', 4, `${err.message}: instantiate wasm contract failed`);
        }
        throw err;
      }
      const info: ContractRecord = {
        codeId: p.codeId.toString(),
        creator: p.creator,
        admin: p.admin ?? '',
        label: p.label,
        created: { blockHeight: String(ctx.height), txIndex: String(ctx.txIndex) },
      };
      ctx.store.set(contractKey(address), JSON.stringify(info));
      const events = [
        event('instantiate', { _contract_address: address, code_id: p.codeId.toString() }),
        ...handleResponse(ctx, address, res),
      ];
      return { address, events };
    },

    execute,

    query(state, env, address, msg) {
      const native = natives.get(address);
      if (native) {
        try {
          return native.query(state, msg);
        } catch (err) {
          if (err instanceof ContractError) throw new TxError('wasm', 9, err.message);
          throw err;
        }
      }
      const info = record(state, address);
      if (!info) throw noSuchContract(address);
      const contract = contracts[codes[info.codeId]!];
      try {
        return contract.query(
          state,
          storeBase(address),
          contractEnv(address, env.height, env.timeNanos),
          msg,
        );
      } catch (err) {
        // The contract's own message; the REST surface adds wasmd's `query wasm contract failed` framing.
        if (err instanceof ContractError) throw new TxError('wasm', 9, err.message);
        throw err;
      }
    },

    contractInfo(state, address) {
      const info = record(state, address);
      if (!info) return undefined;
      return {
        code_id: info.codeId,
        creator: info.creator,
        admin: info.admin,
        label: info.label,
        created: { block_height: info.created.blockHeight, tx_index: info.created.txIndex },
        ibc_port_id: '',
        extension: null,
      };
    },

    codeKind(state, address) {
      const info = record(state, address);
      return info && codes[info.codeId];
    },

    bindNative(address, native) {
      natives.set(address, native);
    },
  };
  return keeper;
}
