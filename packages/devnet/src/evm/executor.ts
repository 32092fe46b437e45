import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, type EVM, type EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { Account, Address, createAddressFromString } from '@ethereumjs/util';
import { type CallFrameJson, createCallTracer } from './call-tracer.js';
import { gethVmError } from './errors.js';
import type { EvmStateBackend } from './overlay.js';
import { createStoreStateManager, type NativeBalances } from './state-manager.js';
import { createValueTransferLogs } from './value-logs.js';

/** One log as the EVM emitted it. */
export interface EvmLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface AccessTuple {
  address: Uint8Array;
  storageKeys: Uint8Array[];
}

/** One top-level EVM execution, as minievm's `EVMCall` / `EVMCreate` / `EVMStaticCall` runs it. */
export interface EvmExecution {
  backend: EvmStateBackend;
  block: { height: number; timeMs: number };
  caller: Uint8Array;
  /** Absent for a contract creation. */
  to?: Uint8Array;
  data: Uint8Array;
  /** Gas available to the execution, intrinsic gas included. */
  gasLimit: bigint;
  value?: bigint;
  accessList?: AccessTuple[];
  /** CREATE2 salt (32 bytes); a creation without it uses CREATE. */
  salt?: Uint8Array;
  isStatic?: boolean;
  /** Nonce a creation uses for the new address (minievm: the sender's Cosmos sequence). */
  createNonce?: bigint;
  /** Record the callTracer frame of this execution. */
  trace?: boolean;
  /**
   * The ERC20 that holds native balances (minievm's fee token). When set, every value move (the
   * execution's own and any inner CALL or CREATE with value) logs that token's Transfer before the
   * callee's logs, as minievm's transfer through the token does; a frame that reverts drops its log.
   */
  valueToken?: Uint8Array;
}

export type EvmFailure =
  | { kind: 'intrinsic'; message: string }
  | { kind: 'revert'; data: Uint8Array }
  | { kind: 'vm'; message: string };

export interface EvmOutcome {
  returnValue: Uint8Array;
  logs: EvmLog[];
  /** minievm `CalGasUsed`: intrinsic plus execution gas, less the (capped) refund. */
  gasUsed: bigint;
  createdAddress?: Uint8Array;
  /** Every contract the execution created, in creation order. */
  createdContracts: Uint8Array[];
  error?: EvmFailure;
  frame?: CallFrameJson;
}

export interface EvmExecutor {
  run(execution: EvmExecution): Promise<EvmOutcome>;
  /** CometBFT hashes of past blocks, for the BLOCKHASH opcode (minievm tracks them the same way). */
  rememberBlockHash(height: number, hash: Uint8Array): void;
}

export interface ExecutorOptions {
  evmChainId: bigint;
  balances?: NativeBalances;
  /** GASLIMIT opcode value; minievm uses the consensus max block gas. */
  blockGasLimit: bigint;
  /** BASEFEE opcode value, in wei. */
  baseFee: bigint;
}

const ZERO_ADDRESS = new Address(new Uint8Array(20));
const ZERO_HASH = new Uint8Array(32);
const MAX_BLOCK_HASHES = 256;

/** go-ethereum `core.IntrinsicGas` under Prague rules (no EIP-7623 floor: minievm does not apply it). */
export function intrinsicGas(input: {
  data: Uint8Array;
  isCreate: boolean;
  accessList?: AccessTuple[];
  authorizations?: number;
}): bigint {
  let gas = input.isCreate ? 53_000n : 21_000n;
  let zeros = 0n;
  for (const byte of input.data) if (byte === 0) zeros += 1n;
  gas += zeros * 4n + (BigInt(input.data.length) - zeros) * 16n;
  if (input.isCreate) gas += ((BigInt(input.data.length) + 31n) / 32n) * 2n;
  for (const tuple of input.accessList ?? []) gas += 2_400n + 1_900n * BigInt(tuple.storageKeys.length);
  gas += 25_000n * BigInt(input.authorizations ?? 0);
  return gas;
}

const unprefixed = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * One EVM (Prague rules) reused for every execution: the state manager is pointed at the execution's
 * backend, and executions run one at a time because the EVM's journal is shared.
 */
export async function createEvmExecutor(options: ExecutorOptions): Promise<EvmExecutor> {
  const common = createCustomCommon({ chainId: Number(options.evmChainId) }, Mainnet, {
    hardfork: Hardfork.Prague,
  });
  const blockHashes = new Map<number, Uint8Array>();
  const blockchain = {
    getBlock: async (height: number) => ({ hash: () => blockHashes.get(Number(height)) ?? ZERO_HASH }),
    shallowCopy() {
      return blockchain;
    },
  } as unknown as EVMMockBlockchainInterface;
  const stateManager = createStoreStateManager({
    backend: {
      get: () => undefined,
      group: () => [],
      set() {},
      checkpoint() {},
      commit() {},
      revert() {},
      depth: 0,
    },
    ...(options.balances ? { balances: options.balances } : {}),
  });
  const evm: EVM = await createEVM({ common, stateManager, blockchain });
  const tracer = createCallTracer(evm.events as never);
  const valueLogs = createValueTransferLogs(evm.events as never);
  const precompiles = [...evm.precompiles.keys()];

  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  const execute = async (x: EvmExecution): Promise<EvmOutcome> => {
    const isCreate = x.to === undefined;
    const intrinsic = intrinsicGas({
      data: x.data,
      isCreate,
      ...(x.accessList ? { accessList: x.accessList } : {}),
    });
    if (x.gasLimit < intrinsic) {
      return {
        returnValue: new Uint8Array(0),
        logs: [],
        gasUsed: 0n,
        createdContracts: [],
        error: { kind: 'intrinsic', message: `intrinsic gas too low: have ${x.gasLimit}, want ${intrinsic}` },
      };
    }
    const caller = new Address(x.caller);
    const to = x.to ? new Address(x.to) : undefined;
    stateManager.use(x.backend);
    const depth = x.backend.depth;
    x.backend.checkpoint();
    try {
      const { journal } = evm;
      journal.cleanJournal();
      // EIP-2929/3651 warm set, as minievm's StateDB.Prepare builds it (coinbase is the null address).
      for (const address of precompiles) journal.addAlwaysWarmAddress(address);
      journal.addAlwaysWarmAddress(unprefixed(x.caller));
      if (x.to) journal.addAlwaysWarmAddress(unprefixed(x.to));
      journal.addAlwaysWarmAddress(unprefixed(ZERO_ADDRESS.bytes));
      for (const tuple of x.accessList ?? []) {
        const address = unprefixed(tuple.address);
        journal.addAlwaysWarmAddress(address);
        for (const key of tuple.storageKeys) journal.addAlwaysWarmSlot(address, unprefixed(key));
      }
      if (isCreate && x.createNonce !== undefined) {
        const account = (await stateManager.getAccount(caller)) ?? new Account();
        account.nonce = x.createNonce;
        await stateManager.putAccount(caller, account);
      }
      if (x.trace) tracer.start();
      valueLogs.start(x.valueToken);
      const gasAvailable = x.gasLimit - intrinsic;
      const result = await evm.runCall({
        block: {
          header: {
            number: BigInt(x.block.height),
            coinbase: ZERO_ADDRESS,
            timestamp: BigInt(Math.floor(x.block.timeMs / 1000)),
            difficulty: 0n,
            prevRandao: ZERO_HASH,
            gasLimit: options.blockGasLimit,
            baseFeePerGas: options.baseFee,
            getBlobGasPrice: () => 0n,
          },
        },
        caller,
        origin: caller,
        gasPrice: 0n,
        ...(to ? { to } : {}),
        data: x.data,
        value: x.value ?? 0n,
        gasLimit: gasAvailable,
        isStatic: x.isStatic ?? false,
        ...(x.salt ? { salt: x.salt } : {}),
        // A call leaves the caller's nonce alone; a creation consumes it, as geth's evm.Create does.
        skipNonceIncrement: !isCreate,
      });
      const frame = x.trace ? tracer.stop() : undefined;
      valueLogs.stop();
      const exec = result.execResult;
      const failure = exec.exceptionError?.error;
      if (!failure) {
        // EIP-6780: only contracts created by this execution are really destroyed.
        for (const [address] of exec.selfdestruct ?? new Map()) {
          if (exec.createdAddresses?.has(address))
            await evm.journal.deleteAccount(createAddressFromString(address));
        }
      }
      await evm.journal.cleanup();
      stateManager.originalStorageCache.clear();

      const executionGas = exec.executionGasUsed;
      const gasRemaining = gasAvailable - executionGas;
      const spent = x.gasLimit - gasRemaining;
      const refund = failure ? 0n : (exec.gasRefund ?? 0n);
      const gasUsed = spent - (refund < spent / 5n ? refund : spent / 5n);
      const outcome: EvmOutcome = {
        returnValue: exec.returnValue,
        logs: failure ? [] : (exec.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })),
        gasUsed,
        createdContracts: failure
          ? []
          : [...(exec.createdAddresses ?? [])].map((a) => new Uint8Array(Buffer.from(a.slice(2), 'hex'))),
        ...(result.createdAddress && !failure ? { createdAddress: result.createdAddress.bytes } : {}),
        ...(frame ? { frame } : {}),
      };
      if (failure === 'revert') outcome.error = { kind: 'revert', data: exec.returnValue };
      else if (failure) outcome.error = { kind: 'vm', message: gethVmError(failure) };
      if (outcome.error) x.backend.revert();
      else x.backend.commit();
      return outcome;
    } catch (err) {
      // An exception can leave the EVM's own frames open: unwind to where this execution started.
      tracer.stop();
      while (x.backend.depth > depth) x.backend.revert();
      throw err;
    }
  };

  return {
    run: (execution) => serial(() => execute(execution)),
    rememberBlockHash(height, hash) {
      blockHashes.set(height, hash);
      blockHashes.delete(height - MAX_BLOCK_HASHES - 1);
    },
  };
}
