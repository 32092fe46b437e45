import { createHash } from 'node:crypto';
import type { Logger } from 'weft/common/logger.js';
import { createBankMsgModule } from './bank/msg-send.js';
import { createStoreBank } from './bank/store-bank.js';
import { createFileBlockStore, createMemoryBlockStore } from './block-store.js';
import { type Chain, type ChainOptions, createChain } from './chain.js';
import { blockTime } from './comet-json.js';
import type { NftAppVm } from './ibc/nft/app.js';
import { type DevAccount, deriveAccount, deriveAccounts, deriveValidatorKey, type KeyType } from './keys.js';
import type { CheckTxResult } from './node.js';
import { type Auth, createAuth } from './state/auth.js';
import { createStateStore, type StateStore } from './state/store.js';
import { createTrafficGenerator, type TrafficGenerator, type TrafficPlan } from './traffic/generator.js';
import type { AbciEvent, BankKeeper, BlockHooks, ChainInfo, ChainRole, Coin, MsgModule } from './types.js';

/** Fixed genesis time, so that equal seeds give equal blocks. */
export const GENESIS_TIME_MS = Date.parse('2026-01-01T00:00:00Z');

/** SDK `authtypes.NewModuleAddress`: the first 20 bytes of sha256(name). */
export const moduleAddressBytes = (name: string) =>
  new Uint8Array(createHash('sha256').update(name).digest().subarray(0, 20));

/** What a chain of some role is, before its parts: facts, keys, funding and the traffic every such chain has. */
export interface ChainSpec {
  info: ChainInfo & { role: ChainRole };
  keyType: KeyType;
  /** Funding of each test account, in base units of the fee denom. */
  funding: bigint;
  /** Traffic the chain runs besides its parts' plans. */
  plans: TrafficPlan[];
  /** Refuses every tx that did not arrive as a signed Ethereum tx (an Ethereum chain). */
  ethTxsOnly?: boolean;
}

export interface DevChainOptions {
  seed: string;
  accounts: number;
  blockTimeMs: number;
  /** Folder of this chain's blocks; absent = in memory. */
  stateDir?: string;
  logger: Logger;
}

/** One chain of the network with its funded accounts and its traffic. */
export interface DevChain {
  role: ChainRole;
  chain: Chain;
  /** Funded test accounts. */
  accounts: DevAccount[];
  traffic: TrafficGenerator;
}

/** What every chain gets from the factory to build its parts on. */
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

/** What a chain's VM and modules add to the common chain: its bank, modules, traffic and node extensions. */
export interface VmParts {
  bank?: BankKeeper;
  modules: MsgModule[];
  plans: TrafficPlan[];
  genesis?: ChainOptions['genesis'];
  evm?: ChainOptions['evm'];
  extensions?: ChainOptions['extensions'];
  hooks?: ChainOptions['hooks'];
  sendEthTx?: (raw: Uint8Array) => Promise<string>;
  /** What ICS-721 moves on this chain, when the network links it over nft-transfer. */
  ics721?: NftAppVm;
}

export type PartsOf = (base: VmBase) => Promise<VmParts> | VmParts;

/**
 * Builds one chain of any role: keys, state, the bank and `MsgSend`, fee distribution to the sequencer,
 * genesis funding, the parts' modules and the traffic. Rollups, the L1 and the external chains differ
 * only by their spec and their parts.
 */
export async function createDevChain(
  spec: ChainSpec,
  options: DevChainOptions,
  partsOf: PartsOf = () => ({ modules: [], plans: [] }),
): Promise<DevChain> {
  const { info } = spec;
  const prefix = info.bech32Prefix;
  const key = (index: number, name: string) =>
    deriveAccount({ seed: options.seed, index, keyType: spec.keyType, prefix, name });
  const accounts = deriveAccounts({
    seed: options.seed,
    count: options.accounts,
    keyType: spec.keyType,
    prefix,
  });
  const operator = key(10_000, 'operator');
  const store = createStateStore();
  const auth = createAuth({ prefix, moduleAddress: moduleAddressBytes });
  const storeBank = createStoreBank({ auth });
  const relayer = key(10_001, 'relayer');
  let built: Chain | undefined;
  const parts = await partsOf({
    chain: () => {
      if (!built) throw new Error('chain: the chain is not built yet');
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
  const validatorKey = deriveValidatorKey(options.seed, info.chainId);

  const chain = await createChain({
    info,
    seed: options.seed,
    genesisTimeMs: GENESIS_TIME_MS,
    blockTimeMs: options.blockTimeMs,
    store,
    blocks: options.stateDir ? createFileBlockStore(options.stateDir) : createMemoryBlockStore(),
    auth,
    bank,
    modules: [createBankMsgModule({ bank, prefix }), ...parts.modules],
    hooks: [
      feeDistribution({ auth, bank, denom: info.denom, operator: operator.address }),
      ...(parts.hooks ?? []),
    ],
    sequencer: { ...validatorKey, moniker: `${info.chainId}-sequencer` },
    async genesis(ctx) {
      await parts.genesis?.(ctx);
      const funding: Coin[] = [{ denom: info.denom, amount: spec.funding.toString() }];
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

  built = spec.ethTxsOnly ? ethTxsOnly(chain) : chain;
  const traffic = createTrafficGenerator({
    chain: built,
    accounts,
    plans: [...spec.plans, ...parts.plans],
    seed: options.seed,
    sendEthTx: parts.sendEthTx,
    logger: options.logger,
  });
  // Plans learn from committed blocks; after a restart they relearn from the stored ones.
  for (let height = chain.earliestHeight(); height <= chain.latestHeight(); height += 1) {
    const record = chain.getBlock(height);
    if (record) traffic.observe(record);
  }
  return { role: info.role, chain: built, accounts, traffic };
}

/** An Ethereum chain takes signed Ethereum txs only: a Cosmos tx is refused at CheckTx. */
function ethTxsOnly(chain: Chain): Chain {
  const refuse = (raw: Uint8Array): CheckTxResult => ({
    code: 2,
    codespace: 'sdk',
    log: 'this chain accepts signed Ethereum txs only: tx parse error',
    data: '',
    hash: createHash('sha256').update(raw).digest('hex').toUpperCase(),
    gasWanted: '0',
    gasUsed: '0',
  });
  return {
    ...chain,
    broadcastTx: async (raw) => refuse(raw),
    submit: (raw, eth) => (eth ? chain.submit(raw, eth) : Promise.resolve(refuse(raw))),
  };
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
