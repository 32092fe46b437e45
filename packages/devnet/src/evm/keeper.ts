import { keccak_256 } from '@noble/hashes/sha3.js';
import { toBech32 } from 'weft/chain/address.js';
import type { Auth } from '../state/auth.js';
import type { StateStore } from '../state/store.js';
import type { BlockContext, TxContext } from '../types.js';
import type { CallFrameJson } from './call-tracer.js';
import type { EvmExecution, EvmExecutor, EvmOutcome } from './executor.js';
import type { EvmStateBackend } from './overlay.js';
import { evmKeys } from './state-keys.js';
import { TRANSFER_TOPIC } from './value-logs.js';

/** Where an execution runs: which state, which block, and which tx (when it belongs to one). */
export interface ExecContext {
  store: EvmStateBackend;
  height: number;
  timeMs: number;
  mode?: TxContext['mode'];
  txHash?: string;
  /** The chain's store, when the execution changes chain state (new accounts are created in it). */
  chainStore?: StateStore;
}

/** The execution context of a chain context (a block, a tx, or a bank movement inside either). */
export function execContextOf(ctx: BlockContext & Partial<Pick<TxContext, 'mode' | 'txHash'>>): ExecContext {
  return {
    store: ctx.store,
    chainStore: ctx.store,
    height: ctx.height,
    timeMs: ctx.timeMs,
    ...(ctx.mode ? { mode: ctx.mode } : {}),
    ...(ctx.txHash ? { txHash: ctx.txHash } : {}),
  };
}

export type KeeperExecution = Omit<EvmExecution, 'backend' | 'block' | 'trace'>;

export interface EvmKeeper {
  /** minievm `EVMCall`/`EVMCreate`: one top-level execution, traced when it is part of a delivered tx. */
  run(ctx: ExecContext, execution: KeeperExecution): Promise<EvmOutcome>;
  /** Records that a delivered tx ended in an EVM revert (minievm hands the data to the tracer). */
  noteRevert(txHash: string, data: Uint8Array): void;
  /** The top-level frames and revert of a delivered tx, in execution order; each tx is taken once. */
  takeTrace(txHash: string): { calls: CallFrameJson[]; revert?: Uint8Array };
}

const hexOf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

const ERC20_CREATED_TOPIC = hexOf(keccak_256(new TextEncoder().encode('ERC20Created(address,address)')));
/** minievm's std address, the caller of the chain's own `createERC20`s. */
const CHAIN_CALLER = `${'0'.repeat(39)}1`;

export function createEvmKeeper(options: {
  executor: EvmExecutor;
  prefix: string;
  feeDenom: string;
  auth?: Auth;
}): EvmKeeper {
  const { executor, auth, prefix } = options;
  const frames = new Map<string, CallFrameJson[]>();
  const reverts = new Map<string, Uint8Array>();

  /**
   * minievm creates Cosmos accounts as the EVM touches addresses: a contract account for each created
   * contract, and a base account for each recipient of a registered ERC20 (its `register_erc20_store`).
   */
  const createAccounts = (store: StateStore, outcome: EvmOutcome) => {
    if (!auth) return;
    for (const contract of outcome.createdContracts) auth.ensure(store, toBech32(prefix, contract));
    for (const log of outcome.logs) {
      if (log.topics.length !== 3 || hexOf(log.topics[0]!) !== TRANSFER_TOPIC) continue;
      const token = hexOf(log.address);
      if (
        store.get(evmKeys.denomOfContract(token)) === undefined &&
        store.get(evmKeys.factoryErc20(token)) === undefined
      )
        continue;
      const recipient = log.topics[2]!.subarray(12);
      if (recipient.every((b) => b === 0)) continue;
      auth.ensure(store, toBech32(prefix, recipient));
    }
  };

  /**
   * The factory's `register_erc20_from_factory` (x/evm/contracts/erc20_factory): a token a user makes is
   * registered, so its holders get accounts and its balances are listed as `evm/…` coins.
   */
  const registerFactoryErc20s = (store: StateStore, outcome: EvmOutcome) => {
    if (outcome.logs.length === 0) return;
    const factory = store.get(evmKeys.factory);
    for (const log of outcome.logs) {
      if (hexOf(log.address) !== factory || log.topics.length !== 3) continue;
      if (hexOf(log.topics[0]!) !== ERC20_CREATED_TOPIC) continue;
      store.set(evmKeys.factoryErc20(hexOf(log.topics[1]!.subarray(12))), '1');
    }
  };

  return {
    async run(ctx, execution) {
      const trace = ctx.mode === 'deliver' && ctx.txHash !== undefined;
      const valueToken = ctx.store.get(evmKeys.contractOfDenom(options.feeDenom));
      const outcome = await executor.run({
        ...execution,
        ...(valueToken ? { valueToken: Buffer.from(valueToken, 'hex') } : {}),
        backend: ctx.store,
        block: { height: ctx.height, timeMs: ctx.timeMs },
        trace,
      });
      if (trace && outcome.frame) {
        const list = frames.get(ctx.txHash!) ?? [];
        list.push(outcome.frame);
        frames.set(ctx.txHash!, list);
      }
      if (!outcome.error && ctx.chainStore) {
        if (hexOf(execution.caller) !== CHAIN_CALLER) registerFactoryErc20s(ctx.chainStore, outcome);
        createAccounts(ctx.chainStore, outcome);
      }
      return outcome;
    },
    noteRevert(txHash, data) {
      reverts.set(txHash, data);
    },
    takeTrace(txHash) {
      const calls = frames.get(txHash) ?? [];
      const revert = reverts.get(txHash);
      frames.delete(txHash);
      reverts.delete(txHash);
      return revert ? { calls, revert } : { calls };
    },
  };
}
