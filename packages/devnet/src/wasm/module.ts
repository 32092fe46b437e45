import {
  MsgExecuteContractResponse,
  MsgInstantiateContractResponse,
} from '@initia/initia.proto/cosmwasm/wasm/v1/tx.js';
import { fromBech32 } from 'weft/chain/address.js';
import { decodeAny } from 'weft/chain/registry.js';
import { appendMsgIndex } from '../events.js';
import type { WasmNode } from '../node.js';
import type { Auth } from '../state/auth.js';
import type { StateStore } from '../state/store.js';
import { type BankKeeper, type Coin, type MsgModule, type TxContext, TxError } from '../types.js';
import { type CodeKind, createWasmKeeper, type WasmKeeper } from './keeper.js';

export const MSG_INSTANTIATE_CONTRACT = '/cosmwasm.wasm.v1.MsgInstantiateContract';
export const MSG_EXECUTE_CONTRACT = '/cosmwasm.wasm.v1.MsgExecuteContract';

export interface Cw721ModuleOptions {
  prefix: string;
  /** The chain's state; `node` reads committed heights from it. */
  store: StateStore;
  /** Code id → contract; defaults to cw721-base as code 1 and cw721-receiver-tester as code 2. */
  codes?: Record<string, CodeKind>;
  /** Registers contract accounts, as wasmd does at instantiation. */
  auth?: Pick<Auth, 'ensure'>;
  /** Moves `funds` attached to a msg; without it such msgs are rejected. */
  bank?: BankKeeper;
  /** Block time (ns) of a committed height, for expirations in queries at that height. */
  blockTimeNanos?: (height: number) => bigint;
}

export interface Cw721 {
  module: MsgModule;
  node: WasmNode;
  /** For other modules (ICS-721 receive) that instantiate and execute contracts. */
  keeper: WasmKeeper;
}

/** wasmd's `ValidateBasic` address checks: `errorsmod.Wrap(err, field)`. */
function requireAddress(address: string, prefix: string, field: string): void {
  try {
    const decoded = fromBech32(address);
    if (decoded.prefix === prefix) return;
    throw new Error(`invalid Bech32 prefix; expected ${prefix}, got ${decoded.prefix}`);
  } catch (err) {
    throw new TxError('undefined', 1, `${field}: ${(err as Error).message}`);
  }
}

function parsePayload(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new TxError('wasm', 14, 'payload msg: json: invalid');
  }
}

/** `MsgInstantiateContract` / `MsgExecuteContract` over the simulated contracts. */
export function createCw721Module(options: Cw721ModuleOptions): Cw721 {
  const { prefix, store } = options;
  const keeper = createWasmKeeper(options);

  const moveFunds = async (ctx: TxContext, from: string, to: string, funds: Coin[]) => {
    if (funds.length === 0) return;
    if (!options.bank)
      throw new TxError('sdk', 10, 'funds are not supported on this devnet chain: invalid coins');
    await options.bank.send(ctx, from, to, funds);
  };

  const module: MsgModule = {
    name: 'wasm',
    typeUrls: [MSG_INSTANTIATE_CONTRACT, MSG_EXECUTE_CONTRACT],
    signers: (msg) => [decodeAny(msg).sender as string],
    async execute(ctx, msg) {
      const m = decodeAny(msg);
      requireAddress(m.sender, prefix, 'sender');
      if (msg.typeUrl === MSG_INSTANTIATE_CONTRACT) {
        if (m.codeId === 0n) throw new TxError('wasm', 12, 'code id is required: empty');
        if (m.label.trim() === '') throw new TxError('wasm', 12, 'label: is required: empty');
        if (m.admin !== '') requireAddress(m.admin, prefix, 'admin');
        const payload = parsePayload(m.msg);
        await moveFunds(ctx, m.sender, keeper.nextAddress(store, m.codeId), m.funds);
        const { address, events } = keeper.instantiate(ctx, {
          codeId: m.codeId,
          creator: m.sender,
          admin: m.admin === '' ? undefined : m.admin,
          label: m.label,
          msg: payload,
        });
        ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
        return {
          typeUrl: '/cosmwasm.wasm.v1.MsgInstantiateContractResponse',
          value: MsgInstantiateContractResponse.encode({ address, data: new Uint8Array() }).finish(),
        };
      }
      requireAddress(m.contract, prefix, 'contract');
      const payload = parsePayload(m.msg);
      await moveFunds(ctx, m.sender, m.contract, m.funds);
      const events = keeper.execute(ctx, { contract: m.contract, sender: m.sender, msg: payload });
      ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
      return {
        typeUrl: '/cosmwasm.wasm.v1.MsgExecuteContractResponse',
        value: MsgExecuteContractResponse.encode({ data: new Uint8Array() }).finish(),
      };
    },
  };

  const node: WasmNode = {
    smartQuery(contract, query, height) {
      const h = height ?? store.height;
      const timeNanos = options.blockTimeNanos?.(h) ?? 0n;
      return keeper.query(store.at(h), { height: h, timeNanos }, contract, query);
    },
    contractInfo: (contract, height) => keeper.contractInfo(store.at(height ?? store.height), contract),
  };

  return { module, node, keeper };
}
