import type { TypedTransaction } from '@ethereumjs/tx';
import type { EvmHooks } from '../chain.js';
import type { BlockRecord, EvmBlockRecord, EvmNode } from '../node.js';
import type { Auth } from '../state/auth.js';
import type { DecodedTx } from '../tx/codec.js';
import type { AbciEvent, BlockContext, ChainInfo, EthTxEnvelope, MsgModule } from '../types.js';
import { type ContractArtifacts, contractArtifacts } from './contracts.js';
import { createErc20Bank, type Erc20Bank, STD_ADDRESS } from './erc20-bank.js';
import { readErc20Balance, writeErc20Balance } from './erc20-storage.js';
import { buildEvmBlock } from './eth-block.js';
import { convertEthereumTx, type EthTxParams, ethTxOfCosmosTx } from './eth-tx.js';
import { createEvmIndexes, createEvmNode, type EvmIndexView, type EvmNodeOptions } from './evm-node.js';
import { createEvmExecutor, type EvmExecutor } from './executor.js';
import { evmChainIdOf, gasPriceWei } from './fee-units.js';
import { createEvmKeeper, type EvmKeeper, execContextOf } from './keeper.js';
import { createEvmMsgModule } from './msg-module.js';
import { evmKeys } from './state-keys.js';
import type { NativeBalances } from './state-manager.js';

export interface EvmModuleOptions {
  chain: ChainInfo;
  /** Couples EVM nonces with Cosmos sequences and creates accounts as minievm does. */
  auth?: Auth;
  /** Decimals of the fee denom's ERC20 (minievm's genesis default: 18). */
  feeDecimals?: number;
  /** Block gas limit (GASLIMIT, the Ethereum header); minievm's default consensus params have none. */
  blockGasLimit?: bigint;
  /** EVM gas of simulations and gas estimates (minievm `contract-simulation-gas-limit`). */
  simulationGasLimit?: bigint;
  /** EVM gas of `eth_call`. */
  callGasLimit?: bigint;
}

/**
 * The minievm module of the EVM rollup. It is the MsgModule of `MsgCall`/`MsgCreate` and the chain's
 * `EvmHooks` (Ethereum signature checks, Ethereum block views), and it carries the bank (every denom an
 * ERC20), the genesis deployments and the EVM JSON-RPC backend.
 */
export interface EvmModule extends MsgModule, EvmHooks {
  readonly evmChainId: bigint;
  readonly feeDecimals: number;
  readonly bank: Erc20Bank;
  readonly keeper: EvmKeeper;
  readonly artifacts: ContractArtifacts;
  readonly txParams: EthTxParams;
  /** minievm `Initialize`: deploys the ERC20 factory and the fee denom's ERC20. */
  genesis(ctx: BlockContext & { events: AbciEvent[] }): Promise<void>;
  /** `eth_sendRawTransaction`'s conversion to a Cosmos tx (throws with the node's message). */
  convertEthereumTx(raw: Uint8Array): { txRaw: Uint8Array; envelope: EthTxEnvelope };
  /** The EVM JSON-RPC backend of this chain. */
  createNode(options: EvmNodeOptions): EvmNode & EvmIndexView;
}

const MAX_CACHED_CONVERSIONS = 20_000;
const MAX_UINT64 = 2n ** 64n - 1n;

export async function createEvmModule(options: EvmModuleOptions): Promise<EvmModule> {
  const { chain, auth } = options;
  const feeDecimals = options.feeDecimals ?? 18;
  const evmChainId = BigInt(chain.evmChainId ?? evmChainIdOf(chain.chainId));
  const blockGasLimit = options.blockGasLimit ?? MAX_UINT64;
  const simulationGasLimit = options.simulationGasLimit ?? 3_000_000n;
  const callGasLimit = options.callGasLimit ?? 50_000_000n;
  const baseFee = gasPriceWei(chain.minGasPrice, feeDecimals);
  const txParams: EthTxParams = {
    chainId: chain.chainId,
    evmChainId,
    bech32Prefix: chain.bech32Prefix,
    feeDenom: chain.denom,
    feeDecimals,
  };
  const artifacts = contractArtifacts();

  // Native balances are the fee denom's ERC20 balances, as in minievm's StateDB.
  const feeContract = (state: { get(key: string): string | undefined }) =>
    state.get(evmKeys.contractOfDenom(chain.denom));
  const balances: NativeBalances = {
    get: (state, address) => {
      const contract = feeContract(state);
      return contract ? readErc20Balance(state, contract, address) : 0n;
    },
    set: (state, address, amount) => {
      const contract = feeContract(state);
      if (contract) writeErc20Balance(state, contract, address, amount);
    },
  };
  const executor: EvmExecutor = await createEvmExecutor({ evmChainId, balances, blockGasLimit, baseFee });
  const keeper = createEvmKeeper({
    executor,
    prefix: chain.bech32Prefix,
    feeDenom: chain.denom,
    ...(auth ? { auth } : {}),
  });
  const bank = createErc20Bank({ keeper, artifacts });
  const msgModule = createEvmMsgModule({
    keeper,
    prefix: chain.bech32Prefix,
    simulationGasLimit,
    ...(auth ? { auth } : {}),
  });
  const indexes = createEvmIndexes();
  let lastBlockHash = new Uint8Array(32);

  // The ante, the block builder and the JSON-RPC surface all ask for the same conversions.
  const conversions = new Map<string, { tx: TypedTransaction; sender: Uint8Array } | null>();
  const ethViewOf = (tx: DecodedTx) => {
    let found = conversions.get(tx.hash);
    if (found === undefined) {
      try {
        found = ethTxOfCosmosTx(tx, txParams) ?? null;
      } catch {
        found = null;
      }
      if (conversions.size >= MAX_CACHED_CONVERSIONS) conversions.clear();
      conversions.set(tx.hash, found);
    }
    return found ?? undefined;
  };

  const rememberBlock = (height: number, timeMs: number, cometHash: string, ethHash: string) => {
    executor.rememberBlockHash(height, Buffer.from(cometHash, 'hex'));
    indexes.blockTimes.set(height, timeMs);
    indexes.blockHeights.set(ethHash, height);
    lastBlockHash = Buffer.from(ethHash.slice(2), 'hex');
  };

  const rememberTx = (height: number, index: number, ethHash: string, cosmosHash: string) => {
    indexes.ethTxs.set(ethHash, { height, index, cosmosHash });
    indexes.cosmosToEth.set(cosmosHash, ethHash);
  };

  return {
    ...msgModule,
    evmChainId,
    feeDecimals,
    bank,
    keeper,
    artifacts,
    txParams,
    verifyEthereumTx(tx) {
      // Same check as `verifyEthereumTx`, on the cached conversion: CheckTx and DeliverTx both ask.
      const view = ethViewOf(tx);
      if (!view) return false;
      try {
        return Buffer.from(view.tx.getSenderAddress().bytes).equals(Buffer.from(view.sender));
      } catch {
        return false;
      }
    },
    async genesis(ctx) {
      const exec = execContextOf(ctx);
      const salt = new Uint8Array(32);
      salt[31] = 1;
      const factory = await keeper.run(exec, {
        caller: STD_ADDRESS,
        data: artifacts.ERC20Factory.bytecode,
        salt,
        gasLimit: 30_000_000n,
      });
      if (factory.error || !factory.createdAddress)
        throw new Error('evm genesis: ERC20 factory deployment failed');
      ctx.store.set(evmKeys.factory, Buffer.from(factory.createdAddress).toString('hex'));
      await bank.createErc20(ctx, chain.denom, feeDecimals);
    },
    convertEthereumTx: (raw) => convertEthereumTx(raw, txParams),
    createNode: (nodeOptions) =>
      createEvmNode(
        {
          keeper,
          bank,
          ...(auth ? { auth } : {}),
          indexes,
          txParams,
          minGasPrice: chain.minGasPrice,
          callGasLimit,
          simulationGasLimit,
        },
        nodeOptions,
      ),
    finishBlock(input): EvmBlockRecord {
      const { ctx } = input;
      const built = buildEvmBlock({
        height: ctx.height,
        timeMs: ctx.timeMs,
        parentHash: ctx.height > 1 ? lastBlockHash : new Uint8Array(32),
        gasLimit: blockGasLimit,
        baseFee,
        txs: input.txs.map(({ record, decoded }) => {
          const eth = ethViewOf(decoded);
          return {
            cosmosHash: record.hash,
            result: record.result,
            gasLimit: decoded.authInfo.fee.gasLimit,
            ...(eth ? { eth } : {}),
            trace: keeper.takeTrace(decoded.hash),
          };
        }),
      });
      let ethIndex = 0;
      for (const [i, ethHash] of built.ethHashes.entries()) {
        if (!ethHash) continue;
        const record = input.txs[i]!.record;
        record.ethHash = ethHash;
        rememberTx(ctx.height, ethIndex, ethHash, record.hash);
        ethIndex += 1;
      }
      rememberBlock(ctx.height, ctx.timeMs, input.blockHash, built.record.block.hash as string);
      return built.record;
    },
    replayBlock(record: BlockRecord) {
      const header = record.block.block.header as { time: string };
      const cometHash = (record.block.block_id as { hash: string }).hash;
      if (!record.evm) return;
      let ethIndex = 0;
      for (const tx of record.txs) {
        if (!tx.ethHash) continue;
        rememberTx(record.height, ethIndex, tx.ethHash, tx.hash);
        ethIndex += 1;
      }
      rememberBlock(record.height, Date.parse(header.time), cometHash, record.evm.block.hash as string);
    },
  };
}
