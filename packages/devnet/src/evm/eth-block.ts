import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { EvmBlockRecord, ExecTxResultJson } from '../node.js';
import { type CallFrameJson, txRootFrame } from './call-tracer.js';
import {
  deriveSha,
  EMPTY_ROOT_HASH,
  EMPTY_UNCLE_HASH,
  encodeReceipt,
  headerHash,
  logsBloom,
  mergeBlooms,
} from './eth-roots.js';
import { ethGasPrice } from './eth-tx.js';
import type { EvmLog } from './executor.js';

/**
 * The Ethereum views of a committed block, as minievm's indexer builds them (indexer/abci.go, utils.go)
 * and its JSON-RPC backend renders them (jsonrpc/backend/block.go, tx.go, types/tx.go). JSON objects are
 * written in the key order go-ethereum produces: maps sorted by key, structs in field order.
 */

export interface BlockTxInput {
  /** Uppercase hex Cosmos tx hash. */
  cosmosHash: string;
  result: ExecTxResultJson;
  /** Gas limit of the Cosmos tx (the trace's top frame gas). */
  gasLimit: bigint;
  /** The Ethereum tx the Cosmos tx converts to, for txs sent as Ethereum txs. */
  eth?: { tx: TypedTransaction; sender: Uint8Array };
  trace: { calls: CallFrameJson[]; revert?: Uint8Array };
}

export interface EvmBlockInput {
  height: number;
  timeMs: number;
  parentHash: Uint8Array;
  gasLimit: bigint;
  baseFee: bigint;
  txs: BlockTxInput[];
}

export interface EvmBlockOutput {
  record: EvmBlockRecord;
  hash: Uint8Array;
  /** Ethereum hash of each input tx, or undefined for txs without an Ethereum view. */
  ethHashes: Array<string | undefined>;
}

const hex = (bytes: Uint8Array) =>
  `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
const quantity = (value: bigint | number) => `0x${value.toString(16)}`;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** minievm `extractLogsAndContractAddr`: every `evm` log of the tx, and the `create` event's contract. */
export function extractLogs(
  result: ExecTxResultJson,
  isCreation: boolean,
): { logs: EvmLog[]; contractAddress?: Uint8Array } {
  if (result.code !== 0) return { logs: [] };
  const logs: EvmLog[] = [];
  let contractAddress: Uint8Array | undefined;
  for (const event of result.events) {
    if (isCreation && event.type === 'create') {
      const contract = event.attributes?.find((a) => a.key === 'contract');
      if (contract) contractAddress = Buffer.from(contract.value.slice(2), 'hex');
      continue;
    }
    if (event.type !== 'evm') continue;
    for (const attribute of event.attributes ?? []) {
      if (attribute.key !== 'log') continue;
      const log = JSON.parse(attribute.value) as { address: string; topics?: string[]; data: string };
      logs.push({
        address: Buffer.from(log.address.slice(2), 'hex'),
        topics: (log.topics ?? []).map((t) => Buffer.from(t.slice(2), 'hex')),
        data: Buffer.from(log.data.slice(2), 'hex'),
      });
    }
  }
  return contractAddress ? { logs, contractAddress } : { logs };
}

interface EthTxView {
  type: number;
  hash: Uint8Array;
  /** Bytes for the transactions trie (`MarshalBinary`). */
  encoded: Uint8Array;
  json: (blockHash: string, index: number) => Record<string, unknown>;
  from: string;
  to: string | null;
  gasPrice: bigint;
}

function accessListJson(tx: TypedTransaction) {
  if (!('accessList' in tx) || tx.accessList.length === 0) return null;
  return tx.accessList.map(([address, keys]) => ({ address: hex(address), storageKeys: keys.map(hex) }));
}

/** `NewRPCTransaction` of a real Ethereum tx. */
function realTxView(tx: TypedTransaction, sender: Uint8Array, height: number): EthTxView {
  const hash = tx.hash();
  const feeCap = ethGasPrice(tx);
  const tipCap = 'maxPriorityFeePerGas' in tx ? tx.maxPriorityFeePerGas : tx.gasPrice;
  // Legacy txs carry their chain id in V (EIP-155); typed txs carry yParity in V.
  const chainId = 'chainId' in tx ? tx.chainId : (tx.v! - 35n) / 2n;
  const to = tx.to ? hex(tx.to.bytes) : null;
  return {
    type: tx.type,
    hash,
    encoded: tx.serialize(),
    from: hex(sender),
    to,
    gasPrice: feeCap,
    json: (blockHash, index) => ({
      blockHash,
      blockNumber: quantity(height),
      from: hex(sender),
      gas: quantity(tx.gasLimit),
      gasPrice: quantity(feeCap),
      maxFeePerGas: quantity(feeCap),
      maxPriorityFeePerGas: quantity(tipCap),
      hash: hex(hash),
      input: hex(tx.data),
      nonce: quantity(tx.nonce),
      to,
      transactionIndex: quantity(index),
      value: quantity(tx.value),
      type: quantity(tx.type),
      accessList: accessListJson(tx),
      chainId: quantity(chainId),
      v: quantity(tx.v!),
      r: quantity(tx.r!),
      s: quantity(tx.s!),
      ...(tx.type === 0 ? {} : { yParity: quantity(tx.v!) }),
    }),
  };
}

/**
 * The stand-in minievm indexes for a Cosmos tx that logged EVM events: a LegacyTx whose data is the
 * Cosmos tx hash and every other field zero. Its V of 0 makes go-ethereum derive chain id (0-35)/2 in
 * uint64 arithmetic, and sender recovery fail (so `from` is the zero address).
 */
function fakeTxView(cosmosHash: string, height: number): EthTxView {
  const data = Buffer.from(cosmosHash, 'hex');
  const empty = new Uint8Array(0);
  const encoded = RLP.encode([empty, empty, empty, empty, empty, data, empty, empty, empty]);
  const hash = keccak_256(encoded);
  return {
    type: 0,
    hash,
    encoded,
    from: ZERO_ADDRESS,
    to: null,
    gasPrice: 0n,
    json: (blockHash, index) => ({
      blockHash,
      blockNumber: quantity(height),
      from: ZERO_ADDRESS,
      gas: '0x0',
      gasPrice: '0x0',
      maxFeePerGas: '0x0',
      maxPriorityFeePerGas: '0x0',
      hash: hex(hash),
      input: hex(data),
      nonce: '0x0',
      to: null,
      transactionIndex: quantity(index),
      value: '0x0',
      type: '0x0',
      accessList: null,
      chainId: quantity((2n ** 64n - 35n) / 2n),
      v: '0x0',
      r: '0x0',
      s: '0x0',
    }),
  };
}

/** Builds the block, its transactions, receipts and callTracer traces. */
export function buildEvmBlock(input: EvmBlockInput): EvmBlockOutput {
  const { height } = input;
  const entries: Array<{
    view: EthTxView;
    input: BlockTxInput;
    status: 0 | 1;
    logs: EvmLog[];
    contractAddress?: Uint8Array;
    gasUsed: bigint;
  }> = [];
  const ethHashes: Array<string | undefined> = [];
  let blockGasUsed = 0n;

  for (const tx of input.txs) {
    const gasUsed = BigInt(tx.result.gas_used);
    blockGasUsed += gasUsed;
    const status = tx.result.code === 0 ? 1 : 0;
    if (tx.eth) {
      const { logs, contractAddress } = extractLogs(tx.result, tx.eth.tx.to === undefined);
      const view = realTxView(tx.eth.tx, tx.eth.sender, height);
      entries.push({
        view,
        input: tx,
        status,
        logs,
        ...(contractAddress ? { contractAddress } : {}),
        gasUsed,
      });
      ethHashes.push(hex(view.hash));
      continue;
    }
    const { logs } = status === 1 ? extractLogs(tx.result, false) : { logs: [] };
    if (logs.length === 0) {
      ethHashes.push(undefined);
      continue;
    }
    const view = fakeTxView(tx.cosmosHash, height);
    entries.push({ view, input: tx, status, logs, gasUsed });
    ethHashes.push(hex(view.hash));
  }

  let cumulative = 0n;
  const blooms: Uint8Array[] = [];
  const receiptBodies: Uint8Array[] = [];
  for (const entry of entries) {
    cumulative += entry.gasUsed;
    const bloom = logsBloom(entry.logs);
    blooms.push(bloom);
    receiptBodies.push(
      encodeReceipt({
        type: entry.view.type,
        status: entry.status,
        cumulativeGasUsed: cumulative,
        bloom,
        logs: entry.logs,
      }),
    );
  }
  const bloom = mergeBlooms(blooms);
  const transactionsRoot = deriveSha(entries.map((e) => e.view.encoded));
  const receiptsRoot = deriveSha(receiptBodies);
  const timestamp = BigInt(Math.floor(input.timeMs / 1000));
  const hash = headerHash({
    parentHash: input.parentHash,
    transactionsRoot,
    receiptsRoot,
    logsBloom: bloom,
    number: BigInt(height),
    gasLimit: input.gasLimit,
    gasUsed: blockGasUsed,
    timestamp,
    baseFee: input.baseFee,
  });
  const blockHash = hex(hash);

  const transactions: Array<Record<string, unknown>> = [];
  const receipts: Array<Record<string, unknown>> = [];
  const traces: EvmBlockRecord['traces'] = [];
  let logIndex = 0;
  cumulative = 0n;
  for (const [i, entry] of entries.entries()) {
    // minievm's indexer counts from 1 here (it increments before assigning).
    const txIndex = i + 1;
    const txHash = hex(entry.view.hash);
    cumulative += entry.gasUsed;
    transactions.push(entry.view.json(blockHash, txIndex));
    receipts.push({
      blockHash,
      blockNumber: quantity(height),
      contractAddress: entry.contractAddress ? hex(entry.contractAddress) : null,
      cumulativeGasUsed: quantity(cumulative),
      effectiveGasPrice: quantity(entry.view.gasPrice),
      from: entry.view.from,
      gasUsed: quantity(entry.gasUsed),
      logs: entry.logs.map((log) => ({
        address: hex(log.address),
        topics: log.topics.map(hex),
        data: hex(log.data),
        blockNumber: quantity(height),
        transactionHash: txHash,
        transactionIndex: quantity(txIndex),
        blockHash,
        logIndex: quantity(logIndex++),
        removed: false,
      })),
      logsBloom: hex(blooms[i]!),
      status: quantity(entry.status),
      to: entry.view.to,
      transactionHash: txHash,
      transactionIndex: quantity(txIndex),
      type: quantity(entry.view.type),
    });
    traces.push({
      txHash,
      result: txRootFrame({
        gasLimit: entry.input.gasLimit,
        // The tracer only learns the gas used when the tx succeeds.
        gasUsed: entry.status === 1 ? entry.gasUsed : 0n,
        calls: entry.input.trace.calls,
        ...(entry.input.trace.revert ? { revert: entry.input.trace.revert } : {}),
      }) as unknown as Record<string, unknown>,
    });
  }

  const block: Record<string, unknown> = {
    baseFeePerGas: quantity(input.baseFee),
    difficulty: '0x0',
    extraData: '0x',
    gasLimit: quantity(input.gasLimit),
    gasUsed: quantity(blockGasUsed),
    hash: blockHash,
    logsBloom: hex(bloom),
    miner: ZERO_ADDRESS,
    mixHash: hex(new Uint8Array(32)),
    nonce: '0x0000000000000000',
    number: quantity(height),
    parentHash: hex(input.parentHash),
    receiptsRoot: hex(receiptsRoot),
    sha3Uncles: hex(EMPTY_UNCLE_HASH),
    size: '0x0',
    stateRoot: hex(EMPTY_ROOT_HASH),
    timestamp: quantity(timestamp),
    transactions: transactions.map((t) => t.hash),
    transactionsRoot: hex(transactionsRoot),
    uncles: [],
    withdrawals: [],
    withdrawalsRoot: hex(EMPTY_ROOT_HASH),
  };
  return { record: { block, transactions, receipts, traces }, hash, ethHashes };
}
