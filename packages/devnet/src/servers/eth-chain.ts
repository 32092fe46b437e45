import { cached } from 'weft/common/lru.js';
import { type EthContext, tagHeight } from './eth-context.js';
import { EthRpcError, serverError } from './eth-errors.js';
import {
  arg,
  blockNumber,
  blockNumberOrHash,
  bool,
  hash,
  logFilter,
  optional,
  positional,
  quantity,
  toQuantity,
  traceConfig,
} from './eth-params.js';

/**
 * The EVM JSON-RPC methods over committed blocks: blocks, txs, receipts, logs and callTracer traces. They
 * serve the chain's pre-built Ethereum views; results are serialised once per height and cached.
 */

export type EthMethod = (ctx: EthContext, params: unknown) => Promise<string> | string;

type Json = Record<string, any>;
const NULL = 'null';
const ZERO_HASH = `0x${'0'.repeat(64)}`;
const MAX_LOG_RANGE = 1_000_000;
const MAX_TOPICS = 4;
const MAX_ADDRESSES = 100;

function blockJson(ctx: EthContext, height: number | undefined, full: boolean): string {
  const record = height === undefined ? undefined : ctx.block(height);
  if (!record) return NULL;
  return cached(ctx.cache, `block:${height}:${full ? 'full' : 'hashes'}`, () =>
    JSON.stringify(full ? { ...record.evm.block, transactions: record.evm.transactions } : record.evm.block),
  );
}

function receiptsJson(ctx: EthContext, height: number | undefined): string {
  const record = height === undefined ? undefined : ctx.block(height);
  if (!record) return NULL;
  return cached(ctx.cache, `receipts:${height}`, () => JSON.stringify(record.evm.receipts));
}

/** The block and position of an Ethereum tx, by its hash. */
function locateTx(ctx: EthContext, txHash: string) {
  const found = ctx.evm.findEthTx(txHash);
  const record = found ? ctx.block(found.height) : undefined;
  if (!record) return undefined;
  const index = record.evm.transactions.findIndex((tx) => String(tx.hash).toLowerCase() === txHash);
  return index === -1 ? undefined : { record, index };
}

const sameHash = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b;

function txByIndex(ctx: EthContext, height: number | undefined, index: bigint): string {
  const record = height === undefined ? undefined : ctx.block(height);
  const tx = record?.evm.transactions[Number(index)];
  return tx ? JSON.stringify(tx) : NULL;
}

function txCount(ctx: EthContext, height: number | undefined): string {
  const record = height === undefined ? undefined : ctx.block(height);
  return record ? JSON.stringify(toQuantity(record.evm.transactions.length)) : NULL;
}

/** minievm's checks before tracing a block, in its order and with its texts. */
function traceableBlock(ctx: EthContext, height: number, tracer: string | undefined) {
  if (height < 2) throw serverError('genesis is not traceable');
  const latest = ctx.latest();
  if (height - 1 > latest) throw serverError('requested height is greater than the latest block height');
  if (height > latest) throw serverError(`block #${height} not found`);
  if (height - 1 < ctx.earliest()) {
    throw serverError(
      `failed to load state at height ${height - 1}; version does not exist (latest height: ${latest}): not found`,
    );
  }
  if (tracer !== 'callTracer') {
    throw serverError(
      `tracer ${JSON.stringify(tracer ?? 'structLogger')} is not supported: this node traces with callTracer only`,
    );
  }
  const record = ctx.block(height);
  if (!record) throw serverError(`block #${height} not found`);
  return record;
}

const topCallOnly = (frame: Json | undefined): Json | undefined => {
  if (!frame) return frame;
  const { calls: _calls, ...top } = frame;
  return top;
};

function traceBlock(ctx: EthContext, height: number, params: unknown[]): string {
  const config = arg(params, 1, traceConfig);
  const record = traceableBlock(ctx, height, config.tracer);
  if (config.onlyTopCall) {
    return JSON.stringify(
      record.evm.traces.map((trace) => ({ ...trace, result: topCallOnly(trace.result) })),
    );
  }
  return cached(ctx.cache, `traces:${height}`, () => JSON.stringify(record.evm.traces));
}

function getLogs(ctx: EthContext, params: unknown): string {
  const p = positional(params, 1, 1);
  const filter = arg(p, 0, logFilter);
  if (filter.topics.length > MAX_TOPICS) throw serverError('exceed max topics');
  if (filter.addresses.length > MAX_ADDRESSES) throw serverError('exceed max addresses');
  let from: number;
  let to: number;
  if (filter.blockHash !== undefined) {
    const height = ctx.heightOfHash(filter.blockHash);
    if (height === undefined) throw serverError('unknown block');
    from = height;
    to = height;
  } else {
    const latest = ctx.latest();
    from = filter.fromBlock ? (tagHeight(ctx, filter.fromBlock) ?? latest) : latest;
    to = filter.toBlock ? (tagHeight(ctx, filter.toBlock) ?? latest) : latest;
    if (from > to) throw serverError('invalid block range params');
    if (to - from + 1 > MAX_LOG_RANGE) throw serverError(`block range exceeded ${MAX_LOG_RANGE}`);
  }
  const logs: Json[] = [];
  const last = Math.min(to, ctx.latest());
  for (let height = Math.max(from, ctx.earliest()); height <= last; height += 1) {
    const record = ctx.block(height);
    if (!record) continue;
    for (const receipt of record.evm.receipts) {
      for (const log of (receipt.logs ?? []) as Json[]) {
        if (filter.addresses.length > 0 && !filter.addresses.includes(String(log.address).toLowerCase()))
          continue;
        const topics = (log.topics ?? []) as string[];
        if (filter.topics.length > topics.length) continue;
        const matches = filter.topics.every(
          (options, i) => options === undefined || options.includes(topics[i]!.toLowerCase()),
        );
        if (matches) logs.push(log);
      }
    }
  }
  return JSON.stringify(logs);
}

/** geth's `common.UnprefixedHash`: 64 hex digits, with or without 0x. */
function unprefixedHash(value: unknown): string {
  if (typeof value !== 'string')
    throw new EthRpcError(
      -32602,
      'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.UnprefixedHash',
    );
  const body = value.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(body)) {
    throw new EthRpcError(
      -32602,
      `invalid argument 0: hex string has length ${body.length}, want 64 for common.UnprefixedHash`,
    );
  }
  return body.toUpperCase();
}

export const ETH_CHAIN_METHODS: Record<string, EthMethod> = {
  eth_blockNumber: (ctx) => JSON.stringify(toQuantity(ctx.latest())),

  eth_getBlockByNumber(ctx, params) {
    const p = positional(params, 2, 2);
    return blockJson(ctx, tagHeight(ctx, arg(p, 0, blockNumber)), arg(p, 1, bool));
  },
  eth_getBlockByHash(ctx, params) {
    const p = positional(params, 2, 2);
    return blockJson(ctx, ctx.heightOfHash(arg(p, 0, hash)), arg(p, 1, bool));
  },
  eth_getBlockReceipts(ctx, params) {
    const p = positional(params, 1, 1);
    return receiptsJson(ctx, tagHeight(ctx, arg(p, 0, blockNumberOrHash)));
  },
  eth_getBlockTransactionCountByNumber(ctx, params) {
    const p = positional(params, 1, 1);
    return txCount(ctx, tagHeight(ctx, arg(p, 0, blockNumber)));
  },
  eth_getBlockTransactionCountByHash(ctx, params) {
    const p = positional(params, 1, 1);
    return txCount(ctx, ctx.heightOfHash(arg(p, 0, hash)));
  },

  eth_getTransactionByHash(ctx, params) {
    const p = positional(params, 1, 1);
    const found = locateTx(ctx, arg(p, 0, hash));
    return found ? JSON.stringify(found.record.evm.transactions[found.index]) : NULL;
  },
  eth_getTransactionReceipt(ctx, params) {
    const p = positional(params, 1, 1);
    const txHash = arg(p, 0, hash);
    const found = locateTx(ctx, txHash);
    const receipt = found?.record.evm.receipts.find((r) => sameHash(r.transactionHash, txHash));
    return receipt ? JSON.stringify(receipt) : NULL;
  },
  eth_getTransactionByBlockNumberAndIndex(ctx, params) {
    const p = positional(params, 2, 2);
    return txByIndex(
      ctx,
      tagHeight(ctx, arg(p, 0, blockNumber)),
      arg(p, 1, (v) => quantity(v, 'hexutil.Uint')),
    );
  },
  eth_getTransactionByBlockHashAndIndex(ctx, params) {
    const p = positional(params, 2, 2);
    return txByIndex(
      ctx,
      ctx.heightOfHash(arg(p, 0, hash)),
      arg(p, 1, (v) => quantity(v, 'hexutil.Uint')),
    );
  },

  eth_getLogs: getLogs,

  debug_traceBlockByNumber(ctx, params) {
    const p = positional(params, 2, 1);
    const height = tagHeight(ctx, arg(p, 0, blockNumber))!;
    return traceBlock(ctx, height, p);
  },
  debug_traceBlockByHash(ctx, params) {
    const p = positional(params, 2, 1);
    const height = ctx.heightOfHash(arg(p, 0, hash));
    return height === undefined ? NULL : traceBlock(ctx, height, p);
  },
  debug_traceTransaction(ctx, params) {
    const p = positional(params, 2, 1);
    const txHash = arg(p, 0, hash);
    const config = arg(p, 1, optional(traceConfig, { onlyTopCall: false }));
    const found = ctx.evm.findEthTx(txHash);
    if (!found) throw serverError('transaction not found');
    const record = traceableBlock(ctx, found.height, config.tracer);
    const trace = record.evm.traces.find((t) => sameHash(t.txHash, txHash));
    if (!trace) throw serverError('transaction not found in the block');
    if (trace.error !== undefined) throw serverError(trace.error);
    return JSON.stringify(config.onlyTopCall ? topCallOnly(trace.result) : trace.result);
  },

  cosmos_txHashByCosmosTxHash(ctx, params) {
    const p = positional(params, 1, 1);
    const cosmosHash = unprefixedHash(p[0]);
    const found = ctx.node.findTx(cosmosHash);
    const tx =
      found && found.height >= ctx.earliest() ? ctx.node.getBlock(found.height)?.txs[found.index] : undefined;
    return JSON.stringify(tx?.ethHash?.toLowerCase() ?? ZERO_HASH);
  },
  cosmos_cosmosTxHashByTxHash(ctx, params) {
    const p = positional(params, 1, 1);
    const txHash = arg(p, 0, hash);
    const found = ctx.evm.findEthTx(txHash);
    const record = found ? ctx.block(found.height) : undefined;
    const tx = record?.txs.find((t) => sameHash(t.ethHash, txHash));
    return JSON.stringify(tx ? tx.hash.toLowerCase() : '0'.repeat(64));
  },
};
