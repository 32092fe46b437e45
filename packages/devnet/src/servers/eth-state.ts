import { unpackRevert } from '../evm/errors.js';
import { evmChainIdOf } from '../evm/fee-units.js';
import type { EthMethod } from './eth-chain.js';
import { type EthContext, stateHeight, tagHeight } from './eth-context.js';
import { EthRpcError, invalidParamsError, serverError } from './eth-errors.js';
import {
  address,
  arg,
  blockNumber,
  blockNumberOrHash,
  bytes,
  callArgs,
  hash,
  optional,
  positional,
  quantity,
  toQuantity,
} from './eth-params.js';
import { COMET_VERSION } from './node-facts.js';

/** The EVM JSON-RPC methods over state and the mempool: calls, balances, nonces, code, gas, sending txs. */

const LATEST = { kind: 'latest' } as const;
const MAX_FEE_HISTORY_BLOCKS = 1024;
const quantityJson = (n: bigint | number) => JSON.stringify(toQuantity(n));

function noOverrides(params: unknown[], from: number): void {
  const overrides = params[from];
  if (overrides != null && (typeof overrides !== 'object' || Object.keys(overrides).length > 0)) {
    throw serverError('state overrides are not supported');
  }
  if (params[from + 1] != null) throw serverError('block overrides are not supported');
}

/** minievm's revert texts: `Reverted`, or `revert: <reason>: Reverted`. */
const isRevert = (error: string) => error === 'Reverted' || error.endsWith(': Reverted');

/** Evaluation errors: reverts as geth words them (code 3, the revert data in `data`), others as plain errors. */
function callError(error: string, returnData?: string): EthRpcError {
  if (!isRevert(error)) return serverError(error);
  const revertData = returnData && returnData !== '0x' ? returnData : undefined;
  const reason = revertData ? unpackRevert(Buffer.from(revertData.slice(2), 'hex')) : undefined;
  return new EthRpcError(
    3,
    reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`,
    revertData,
  );
}

function feeHistory(ctx: EthContext, params: unknown): string {
  const p = positional(params, 3, 2);
  const countValue = p[0];
  const count =
    typeof countValue === 'string' && /^\d+$/.test(countValue)
      ? Number(countValue)
      : typeof countValue === 'number'
        ? countValue
        : Number(arg(p, 0, (v) => quantity(v, 'math.HexOrDecimal64')));
  const newest = Math.min(tagHeight(ctx, arg(p, 1, blockNumber)) ?? ctx.latest(), ctx.latest());
  const percentiles = arg(
    p,
    2,
    optional((v) => (Array.isArray(v) ? v.map(Number) : []), [] as number[]),
  );
  for (const [i, percentile] of percentiles.entries()) {
    if (!(percentile >= 0 && percentile <= 100) || (i > 0 && percentile < percentiles[i - 1]!)) {
      throw serverError('invalid reward percentile');
    }
  }
  const blocks = Math.min(count, MAX_FEE_HISTORY_BLOCKS, Math.max(0, newest - ctx.earliest() + 1));
  if (blocks === 0) return JSON.stringify({ oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [] });
  const oldest = newest - blocks + 1;
  const gasPrice = toQuantity(ctx.evm.gasPrice());
  const baseFees: string[] = [];
  const ratios: number[] = [];
  for (let height = oldest; height <= newest; height += 1) {
    const header = ctx.block(height)?.evm.block ?? {};
    baseFees.push(typeof header.baseFeePerGas === 'string' ? header.baseFeePerGas : gasPrice);
    const limit = Number(BigInt((header.gasLimit as string | undefined) ?? '0x0'));
    ratios.push(limit === 0 ? 0 : Number(BigInt((header.gasUsed as string | undefined) ?? '0x0')) / limit);
  }
  baseFees.push(baseFees[baseFees.length - 1]!);
  return JSON.stringify({
    oldestBlock: toQuantity(oldest),
    baseFeePerGas: baseFees,
    gasUsedRatio: ratios,
    ...(percentiles.length > 0 ? { reward: ratios.map(() => percentiles.map(() => '0x0')) } : {}),
  });
}

export const ETH_STATE_METHODS: Record<string, EthMethod> = {
  // The EVM module derives the id from the chain id when the chain facts do not fix it.
  eth_chainId: (ctx) => quantityJson(ctx.node.info.evmChainId ?? evmChainIdOf(ctx.node.info.chainId)),
  // minievm: the chain id's last `-` segment when it is a number, else "1".
  net_version(ctx) {
    const last = ctx.node.info.chainId.split('-').pop() ?? '';
    return JSON.stringify(/^\d+$/.test(last) ? String(Number(last)) : '1');
  },
  net_listening: () => 'true',
  net_peerCount: () => '"0x0"',
  web3_clientVersion: () => JSON.stringify(COMET_VERSION),
  eth_syncing: () => 'false',
  eth_accounts: () => '[]',
  eth_gasPrice: (ctx) => quantityJson(ctx.evm.gasPrice()),
  eth_maxPriorityFeePerGas: () => '"0x0"',
  eth_feeHistory: feeHistory,

  async eth_getBalance(ctx, params) {
    const p = positional(params, 2, 1);
    const account = arg(p, 0, address);
    const height = stateHeight(ctx, arg(p, 1, optional(blockNumberOrHash, LATEST)));
    return quantityJson(await ctx.evm.balance(account, height));
  },
  eth_getTransactionCount(ctx, params) {
    const p = positional(params, 2, 1);
    const account = arg(p, 0, address);
    const tag = arg(p, 1, optional(blockNumberOrHash, LATEST));
    // Pending reads the node's own latest view, which the EVM module may extend with its mempool.
    return quantityJson(ctx.evm.nonce(account, tag.kind === 'pending' ? undefined : stateHeight(ctx, tag)));
  },
  eth_getCode(ctx, params) {
    const p = positional(params, 2, 1);
    const account = arg(p, 0, address);
    const height = stateHeight(ctx, arg(p, 1, optional(blockNumberOrHash, LATEST)));
    return JSON.stringify(ctx.evm.code(account, height) || '0x');
  },
  eth_getStorageAt(ctx, params) {
    const p = positional(params, 3, 2);
    const account = arg(p, 0, address);
    const slot = arg(p, 1, (v) => {
      const text = typeof v === 'string' ? v.replace(/^0x/i, '') : '';
      if (!/^[0-9a-fA-F]{1,64}$/.test(text))
        throw invalidParamsError('invalid argument 1: invalid hex string');
      return text.toLowerCase().padStart(64, '0');
    });
    const height = stateHeight(ctx, arg(p, 2, optional(blockNumberOrHash, LATEST)));
    const word = ctx.node.state(height).get(`evm/s/${account.slice(2)}/${slot}`) ?? '';
    return JSON.stringify(`0x${word.replace(/^0x/, '').padStart(64, '0')}`);
  },

  async eth_call(ctx, params) {
    const p = positional(params, 4, 1);
    const args = arg(p, 0, callArgs);
    const height = stateHeight(ctx, arg(p, 1, optional(blockNumberOrHash, LATEST)));
    noOverrides(p, 2);
    const result = await ctx.evm.call(args, height);
    if (result.error !== undefined && result.error !== '') throw callError(result.error, result.returnData);
    return JSON.stringify(result.returnData || '0x');
  },
  async eth_estimateGas(ctx, params) {
    const p = positional(params, 3, 1);
    const args = arg(p, 0, callArgs);
    arg(p, 1, optional(blockNumberOrHash, LATEST));
    if (p[2] != null) throw serverError('state overrides are not supported');
    if (!args.from) throw serverError('from address cannot be empty in the estimated gas');
    try {
      return quantityJson(await ctx.evm.estimateGas(args));
    } catch (err) {
      if (err instanceof EthRpcError) throw err;
      throw callError((err as Error).message);
    }
  },
  async eth_sendRawTransaction(ctx, params) {
    const p = positional(params, 1, 1);
    const raw = Buffer.from(arg(p, 0, bytes).slice(2), 'hex');
    try {
      return JSON.stringify(await ctx.evm.sendRawTransaction(raw));
    } catch (err) {
      throw serverError((err as Error).message);
    }
  },

  eth_getUncleCountByBlockNumber: () => '"0x0"',
  eth_getUncleCountByBlockHash(_ctx, params) {
    arg(positional(params, 1, 1), 0, hash);
    return '"0x0"';
  },
};
