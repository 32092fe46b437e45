import { toBech32 } from 'weft/chain/address.js';
import { GasCost } from '../gas.js';
import type { CheckTxResult, EvmNode } from '../node.js';
import type { Auth } from '../state/auth.js';
import type { StateStore } from '../state/store.js';
import type { EthTxEnvelope } from '../types.js';
import type { Erc20Bank } from './erc20-bank.js';
import { readErc20Balance } from './erc20-storage.js';
import { JsonRpcErrorText, revertMessage } from './errors.js';
import type { EthTxParams } from './eth-tx.js';
import { convertEthereumTx } from './eth-tx.js';
import { checksumAddress } from './evm-events.js';
import type { EvmOutcome } from './executor.js';
import { gasPriceWei, toEthersUnit } from './fee-units.js';
import type { EvmKeeper } from './keeper.js';
import { createOverlay } from './overlay.js';
import { bareHex, evmKeys } from './state-keys.js';

/** What the EVM JSON-RPC surface asks beyond `EvmNode`: the hash indexes of minievm's indexer. */
export interface EvmIndexView {
  /** `cosmos_txHashByCosmosTxHash`: 0x Ethereum hash of a Cosmos tx (uppercase or lowercase hex). */
  ethTxHashByCosmosTxHash(cosmosHash: string): string | undefined;
  /** `cosmos_cosmosTxHashByTxHash`: uppercase Cosmos hash of an Ethereum tx. */
  cosmosTxHashByEthTxHash(ethHash: string): string | undefined;
  /** Height of an Ethereum block hash (`eth_getBlockByHash`). */
  heightByBlockHash(hash: string): number | undefined;
}

/** The module's in-memory indexes, filled as blocks are finished or replayed. */
export interface EvmIndexes extends EvmIndexView {
  ethTxs: Map<string, { height: number; index: number; cosmosHash: string }>;
  cosmosToEth: Map<string, string>;
  blockHeights: Map<string, number>;
  blockTimes: Map<number, number>;
}

export function createEvmIndexes(): EvmIndexes {
  const ethTxs = new Map<string, { height: number; index: number; cosmosHash: string }>();
  const cosmosToEth = new Map<string, string>();
  const blockHeights = new Map<string, number>();
  return {
    ethTxs,
    cosmosToEth,
    blockHeights,
    blockTimes: new Map(),
    ethTxHashByCosmosTxHash: (hash) => cosmosToEth.get(hash.replace(/^0x/i, '').toUpperCase()),
    cosmosTxHashByEthTxHash: (hash) => ethTxs.get(hash.toLowerCase())?.cosmosHash,
    heightByBlockHash: (hash) => blockHeights.get(hash.toLowerCase()),
  };
}

export interface EvmNodeOptions {
  store: StateStore;
  latestHeight(): number;
  /** Submits a converted tx to the chain's CheckTx and mempool. */
  broadcast(raw: Uint8Array, eth: EthTxEnvelope): Promise<Pick<CheckTxResult, 'code' | 'log'>>;
}

export interface EvmNodeDeps {
  keeper: EvmKeeper;
  bank: Erc20Bank;
  auth?: Auth;
  indexes: EvmIndexes;
  txParams: EthTxParams;
  minGasPrice: number;
  /** Gas of `eth_call` (minievm queries run with an unlimited meter; the devnet caps it). */
  callGasLimit: bigint;
  /** EVM gas of a simulation (minievm `contract-simulation-gas-limit`). */
  simulationGasLimit: bigint;
}

const ZERO_ADDRESS = new Uint8Array(20);
/** minievm's JSON-RPC `gas-multiplier` and `StaticGasForCosmos`. */
const ESTIMATE_MULTIPLIER_TENTHS = 14n;
const STATIC_GAS_FOR_COSMOS = 50_000n;

const addressBytes = (address: string) => Buffer.from(bareHex(address).padStart(40, '0'), 'hex');
const dataBytes = (data?: string) =>
  data ? Buffer.from(data.replace(/^0x/i, ''), 'hex') : new Uint8Array(0);

/** minievm's `QueryServer.Call` error texts. */
function callError(outcome: EvmOutcome, isCreate: boolean): string | undefined {
  const error = outcome.error;
  if (!error) return undefined;
  if (error.kind === 'revert') return revertMessage(error.data);
  if (error.kind === 'intrinsic') return error.message;
  return `${error.message}: ${isCreate ? 'EVMCreate failed' : 'EVMCall failed'}`;
}

/** minievm's EVM JSON-RPC backend over the devnet chain's state. */
export function createEvmNode(deps: EvmNodeDeps, options: EvmNodeOptions): EvmNode & EvmIndexView {
  const { keeper, bank, indexes, txParams } = deps;
  const heightOf = (height?: number) => height ?? options.latestHeight();
  const stateAt = (height?: number) => options.store.at(heightOf(height));

  const execute = (
    args: { from?: string; to?: string; data?: string; value?: bigint },
    height: number,
    gasLimit: bigint,
  ) => {
    const state = createOverlay(options.store.at(height));
    return keeper.run(
      { store: state, height, timeMs: indexes.blockTimes.get(height) ?? 0 },
      {
        caller: args.from ? addressBytes(args.from) : ZERO_ADDRESS,
        ...(args.to ? { to: addressBytes(args.to) } : {}),
        data: dataBytes(args.data),
        value: args.value ?? 0n,
        gasLimit,
      },
    );
  };

  return {
    async call(args, height) {
      // Like minievm's query, the caller's gas is not used: the query meter bounds the call.
      const outcome = await execute(args, heightOf(height), deps.callGasLimit);
      const error = callError(outcome, args.to === undefined);
      return {
        returnData: `0x${Buffer.from(outcome.returnValue).toString('hex')}`,
        gasUsed: outcome.gasUsed,
        ...(error ? { error } : {}),
      };
    },
    async estimateGas(args) {
      if (!args.from) throw new Error(JsonRpcErrorText.estimateWithoutFrom);
      const outcome = await execute(args, options.latestHeight(), deps.simulationGasLimit);
      const error = callError(outcome, args.to === undefined);
      if (error) throw new Error(error);
      // The simulated tx also pays the ante: its bytes, one signature check, the sequence bump.
      const anteGas =
        GasCost.txSizePerByte * BigInt(300 + dataBytes(args.data).length) +
        GasCost.secp256k1Verify +
        GasCost.sequenceIncrement;
      return ((outcome.gasUsed + anteGas) * ESTIMATE_MULTIPLIER_TENTHS) / 10n + STATIC_GAS_FOR_COSMOS;
    },
    async balance(address, height) {
      const state = stateAt(height);
      const contract = bank.contractOf(state, txParams.feeDenom);
      if (!contract) return 0n;
      return toEthersUnit(txParams.feeDecimals, readErc20Balance(state, contract, bareHex(address)));
    },
    nonce(address, height) {
      const state = stateAt(height);
      const hex = bareHex(address);
      const record = state.get(evmKeys.account(hex));
      const evmAccount = record ? (JSON.parse(record) as { nonce: string; codeHash?: string }) : undefined;
      // Contracts count their own nonce; accounts use the Cosmos sequence, as minievm does for both.
      if (evmAccount?.codeHash || !deps.auth) return evmAccount ? BigInt(evmAccount.nonce) : 0n;
      const account = deps.auth.get(state, toBech32(txParams.bech32Prefix, addressBytes(address)));
      return account ? BigInt(account.sequence) : 0n;
    },
    code(address, height) {
      const code = stateAt(height).get(evmKeys.code(bareHex(address)));
      return code ? `0x${code}` : '0x';
    },
    gasPrice: () => gasPriceWei(deps.minGasPrice, txParams.feeDecimals),
    async sendRawTransaction(raw) {
      const { txRaw, envelope } = convertEthereumTx(raw, txParams);
      const result = await options.broadcast(txRaw, envelope);
      if (result.code !== 0) throw new Error(result.log);
      return envelope.hash;
    },
    findEthTx(hash) {
      const found = indexes.ethTxs.get(hash.toLowerCase());
      return found ? { height: found.height, index: found.index } : undefined;
    },
    contractByDenom(denom) {
      const contract = bank.contractOf(stateAt(), denom);
      return contract ? checksumAddress(Buffer.from(contract, 'hex')) : undefined;
    },
    denomByContract(address) {
      return bank.denomOf(stateAt(), bareHex(address));
    },
    erc20Factory() {
      const factory = stateAt().get(evmKeys.factory);
      return factory ? checksumAddress(Buffer.from(factory, 'hex')) : undefined;
    },
    ethTxHashByCosmosTxHash: indexes.ethTxHashByCosmosTxHash,
    cosmosTxHashByEthTxHash: indexes.cosmosTxHashByEthTxHash,
    heightByBlockHash: indexes.heightByBlockHash,
  };
}
