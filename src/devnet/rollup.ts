import { createHash } from 'node:crypto';
import type { Logger } from '../common/logger.js';
import { createBankMsgModule } from './bank/msg-send.js';
import { createStoreBank } from './bank/store-bank.js';
import { createFileBlockStore, createMemoryBlockStore } from './block-store.js';
import { type Chain, type ChainOptions, createChain } from './chain.js';
import { blockTime } from './comet-json.js';
import { evmChainIdOf } from './evm/fee-units.js';
import { type DevAccount, deriveAccount, deriveAccounts, deriveValidatorKey, type KeyType } from './keys.js';
import { type Auth, createAuth } from './state/auth.js';
import { createStateStore, type StateStore } from './state/store.js';
import { bankSendPlan, failingTxPlan } from './traffic/bank.js';
import { createTrafficGenerator, type TrafficGenerator, type TrafficPlan } from './traffic/generator.js';
import type { AbciEvent, BankKeeper, BlockHooks, ChainInfo, Coin, MsgModule, VmType } from './types.js';

export interface RollupOptions {
  vm: VmType;
  chainId: string;
  seed: string;
  accounts: number;
  blockTimeMs: number;
  /** Folder of this chain's blocks; absent = in memory. */
  stateDir?: string;
  logger: Logger;
}

export interface Rollup {
  vm: VmType;
  chain: Chain;
  /** Funded test accounts. */
  accounts: DevAccount[];
  traffic: TrafficGenerator;
}

/** Fixed genesis time, so that equal seeds give equal blocks. */
export const GENESIS_TIME_MS = Date.parse('2026-01-01T00:00:00Z');
export const BECH32_PREFIX = 'init';
/** Funding of each test account, in base units of the fee denom. */
const FUNDING: Record<VmType, bigint> = { evm: 10n ** 24n, move: 10n ** 15n, wasm: 10n ** 15n };

/** SDK `authtypes.NewModuleAddress`: the first 20 bytes of sha256(name). */
export const moduleAddressBytes = (name: string) =>
  new Uint8Array(createHash('sha256').update(name).digest().subarray(0, 20));

const VM_FACTS: Record<
  VmType,
  { keyType: KeyType; denom: string; minGasPrice: number; evmChainId?: number }
> = {
  evm: { keyType: 'ethsecp256k1', denom: 'GAS', minGasPrice: 1e9 },
  move: { keyType: 'secp256k1', denom: 'umin', minGasPrice: 0.15 },
  wasm: { keyType: 'secp256k1', denom: 'umin', minGasPrice: 0.15 },
};

/** What every VM gets from the common rollup to build its parts on. */
export interface VmBase {
  info: ChainInfo;
  accounts: DevAccount[];
  /** Signs IBC packets into the chain. */
  relayer: DevAccount;
  store: StateStore;
  auth: Auth;
  bank: BankKeeper;
  blockTimeNanos: (height: number) => bigint;
  /** The chain, once built (node extensions submit txs through it). */
  chain: () => Chain;
}

/** What a VM adds to the common rollup: its bank, its modules, its traffic and node extensions. */
export interface VmParts {
  bank?: BankKeeper;
  modules: MsgModule[];
  plans: TrafficPlan[];
  genesis?: ChainOptions['genesis'];
  evm?: ChainOptions['evm'];
  extensions?: ChainOptions['extensions'];
  hooks?: ChainOptions['hooks'];
  sendEthTx?: (raw: Uint8Array) => Promise<string>;
}

export async function createRollup(
  options: RollupOptions,
  vmParts: (base: VmBase) => Promise<VmParts> | VmParts = () => ({
    modules: [],
    plans: [],
  }),
): Promise<Rollup> {
  const facts = VM_FACTS[options.vm];
  const info: ChainInfo = {
    chainId: options.chainId,
    vm: options.vm,
    bech32Prefix: BECH32_PREFIX,
    denom: facts.denom,
    minGasPrice: facts.minGasPrice,
    evmChainId: options.vm === 'evm' ? Number(evmChainIdOf(options.chainId)) : undefined,
  };
  const accounts = deriveAccounts({
    seed: options.seed,
    count: options.accounts,
    keyType: facts.keyType,
    prefix: BECH32_PREFIX,
  });
  const operator = deriveAccount({
    seed: options.seed,
    index: 10_000,
    keyType: facts.keyType,
    prefix: BECH32_PREFIX,
    name: 'operator',
  });
  const store = createStateStore();
  const auth = createAuth({ prefix: BECH32_PREFIX, moduleAddress: moduleAddressBytes });
  const storeBank = createStoreBank();
  const relayer = deriveAccount({
    seed: options.seed,
    index: 10_001,
    keyType: facts.keyType,
    prefix: BECH32_PREFIX,
    name: 'relayer',
  });
  let built: Chain | undefined;
  const parts = await vmParts({
    chain: () => {
      if (!built) throw new Error('rollup: the chain is not built yet');
      return built;
    },
    info,
    accounts,
    relayer,
    store,
    auth,
    bank: storeBank,
    blockTimeNanos: (height) =>
      BigInt(blockTime(GENESIS_TIME_MS, options.blockTimeMs, height, options.seed).ms) * 1_000_000n,
  });
  const bank = parts.bank ?? storeBank;
  const validatorKey = deriveValidatorKey(options.seed, options.chainId);

  const chain = await createChain({
    info,
    seed: options.seed,
    genesisTimeMs: GENESIS_TIME_MS,
    blockTimeMs: options.blockTimeMs,
    store,
    blocks: options.stateDir ? createFileBlockStore(options.stateDir) : createMemoryBlockStore(),
    auth,
    bank,
    modules: [createBankMsgModule({ bank, prefix: BECH32_PREFIX }), ...parts.modules],
    hooks: [
      feeDistribution({ auth, bank, denom: info.denom, operator: operator.address }),
      ...(parts.hooks ?? []),
    ],
    sequencer: { ...validatorKey, operator: operator.address, moniker: `${options.chainId}-sequencer` },
    async genesis(ctx) {
      await parts.genesis?.(ctx);
      const funding: Coin[] = [{ denom: info.denom, amount: FUNDING[options.vm].toString() }];
      for (const account of [...accounts, operator, relayer]) {
        auth.ensure(store, account.address);
        await bank.mint(ctx, account.address, funding);
      }
      const feeCollector = auth.moduleAddress('fee_collector');
      auth.put(store, feeCollector, {
        ...auth.ensure(store, feeCollector),
        module: { name: 'fee_collector', permissions: [] },
      });
    },
    evm: parts.evm,
    extensions: parts.extensions,
    logger: options.logger,
  });

  built = chain;
  const traffic = createTrafficGenerator({
    chain,
    accounts,
    plans: [bankSendPlan(), failingTxPlan(), ...parts.plans],
    seed: options.seed,
    sendEthTx: parts.sendEthTx,
    logger: options.logger,
  });
  // Plans learn from committed blocks; after a restart they relearn from the stored ones.
  for (let height = chain.earliestHeight(); height <= chain.latestHeight(); height += 1) {
    const record = chain.getBlock(height);
    if (record) traffic.observe(record);
  }
  return { vm: options.vm, chain, accounts, traffic };
}

/**
 * The sequencer is paid at BeginBlock with the fees collected in the previous block, as the
 * distribution step of a chain does; its bank events land in finalize_block_events (mode BeginBlock).
 */
function feeDistribution(options: {
  auth: Auth;
  bank: BankKeeper;
  denom: string;
  operator: string;
}): BlockHooks {
  return {
    async beginBlock(ctx) {
      const events: AbciEvent[] = [];
      const collector = options.auth.moduleAddress('fee_collector');
      const collected = await options.bank.balance(ctx.store, collector, options.denom);
      if (collected > 0n) {
        await options.bank.send({ ...ctx, events }, collector, options.operator, [
          { denom: options.denom, amount: collected.toString() },
        ]);
      }
      return events;
    },
  };
}
