import {
  createEndpoints,
  type Endpoints,
  type EndpointsOptions,
  FutureHeightError,
  type HttpAnswer,
  heightSignal,
  NodeQueryError,
  NodeUnavailableError,
  parseJson,
  troubleOfStatus,
} from './endpoints.js';

/**
 * EVM JSON-RPC (minievm): receipts and callTracer traces of a block, the head, logs over a block range, and
 * batched `balanceOf`.
 */

export interface JsonRpcClientOptions extends EndpointsOptions {
  /** Timeout of `debug_traceBlockByNumber`, which can take long on a full block (default 10× timeoutMs). */
  traceTimeoutMs?: number;
}

export interface BlockTrace {
  txHash: string;
  result?: Record<string, any>;
  error?: string;
}

/** An `eth_getLogs` filter over a block range (topics positional, `null` for any, an array for one of). */
export interface LogFilter {
  fromBlock: number;
  toBlock: number;
  address?: string | string[];
  topics?: Array<string | string[] | null>;
}

export interface JsonRpcClient {
  readonly endpoints: Endpoints;
  blockNumber(signal?: AbortSignal): Promise<number>;
  /** `eth_getBlockReceipts`; a height the node does not serve yet gives a FutureHeightError. */
  blockReceipts(height: number, signal?: AbortSignal): Promise<Array<Record<string, any>>>;
  /** Seconds since the epoch of a block (`eth_getBlockByNumber` without txs). */
  blockTimestamp(height: number, signal?: AbortSignal): Promise<number>;
  /** `eth_getTransactionReceipt`: the receipt, or null while the node has none. */
  transactionReceipt(hash: string, signal?: AbortSignal): Promise<Record<string, any> | null>;
  /** `eth_getLogs`: the logs of the range, in block order. */
  logs(filter: LogFilter, signal?: AbortSignal): Promise<Array<Record<string, any>>>;
  /** `eth_getCode` of an address at a height: true when a contract is deployed there. */
  hasCode(address: string, height: number, signal?: AbortSignal): Promise<boolean>;
  /** `debug_traceBlockByNumber` with callTracer: one entry per Ethereum tx, in block order. */
  traceBlock(height: number, signal?: AbortSignal): Promise<BlockTrace[]>;
  /**
   * ERC20 `balanceOf` of each holder at a height, in batches of 500 calls plus `eth_blockNumber` (id 0),
   * which confirms the node has reached the height. A call that fails reads as 0.
   */
  balancesOf(
    token: string,
    holders: readonly string[],
    height: number,
    signal?: AbortSignal,
  ): Promise<bigint[]>;
}

export const BALANCE_BATCH = 500;
const BALANCE_OF = '0x70a08231';

interface RpcAnswer {
  id: number;
  result?: any;
  error?: { code: number; message: string };
}

const hex = (n: number) => `0x${n.toString(16)}`;

/** Node trouble in geth's wording (its own deadline, a busy node). */
const TROUBLE_TEXT = /deadline exceeded|timeout|too many requests|server is busy/i;

function rpcError(answer: HttpAnswer, error: { code: number; message: string }): Error {
  const text = String(error.message ?? 'error');
  const signal = heightSignal(text);
  if (signal) return signal;
  if (TROUBLE_TEXT.test(text)) return new NodeUnavailableError(`${answer.url}: ${text}`, 'unavailable');
  return new NodeQueryError(`${answer.url}: ${text}`, answer.status, error.code, text);
}

/** The parsed body of a 200 answer; any other status is node trouble or a refusal. */
function readBody(answer: HttpAnswer): any {
  if (answer.status !== 200) {
    throw (
      troubleOfStatus(answer) ??
      new NodeQueryError(`${answer.url}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`, answer.status)
    );
  }
  return parseJson(answer);
}

export function createJsonRpcClient(urls: readonly string[], options: JsonRpcClientOptions): JsonRpcClient {
  const endpoints = createEndpoints(urls, options);
  const traceTimeoutMs = options.traceTimeoutMs ?? options.timeoutMs * 10;
  let nextId = 1;

  const call = (method: string, params: unknown[], init: { signal?: AbortSignal; timeoutMs?: number } = {}) =>
    endpoints.request(
      {
        method: 'POST',
        path: '',
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
        signal: init.signal,
        timeoutMs: init.timeoutMs,
      },
      (answer) => {
        const json = readBody(answer) as RpcAnswer;
        if (json.error) throw rpcError(answer, json.error);
        return json.result;
      },
    );

  const balanceBatch = async (
    token: string,
    holders: readonly string[],
    height: number,
    signal?: AbortSignal,
  ) => {
    const tag = hex(height);
    const requests = [
      { jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] },
      ...holders.map((holder, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'eth_call',
        params: [{ to: token, data: `${BALANCE_OF}${holder.replace(/^0x/, '').padStart(64, '0')}` }, tag],
      })),
    ];
    return endpoints.request(
      { method: 'POST', path: '', body: JSON.stringify(requests), signal },
      (answer): bigint[] => {
        const json = readBody(answer);
        if (!Array.isArray(json)) {
          if (json?.error) throw rpcError(answer, json.error);
          throw new NodeQueryError(`${answer.url}: batch answer is not an array`, answer.status);
        }
        const byId = new Map((json as RpcAnswer[]).map((a) => [a.id, a]));
        const head = byId.get(0);
        if (!head || head.error)
          throw rpcError(answer, head?.error ?? { code: 0, message: 'no eth_blockNumber' });
        const latest = Number(head.result);
        if (latest < height) {
          throw new FutureHeightError(`node is at height ${latest}, balances asked at ${height}`, latest);
        }
        return holders.map((_, i) => {
          const one = byId.get(i + 1);
          if (!one)
            throw new NodeUnavailableError(`${answer.url}: batch answer misses call ${i + 1}`, 'incomplete');
          if (one.error) {
            const err = rpcError(answer, one.error);
            if (!(err instanceof NodeQueryError)) throw err;
            return 0n;
          }
          const result = String(one.result ?? '0x');
          return result === '0x' ? 0n : BigInt(result.slice(0, 66));
        });
      },
    );
  };

  return {
    endpoints,
    async blockNumber(signal) {
      return Number(await call('eth_blockNumber', [], { signal }));
    },
    async blockReceipts(height, signal) {
      const result = await call('eth_getBlockReceipts', [hex(height)], { signal });
      // minievm answers null for a block it does not have (not yet, or pruned; the CometBFT calls tell which).
      if (result === null || result === undefined) {
        throw new FutureHeightError(`receipts of height ${height}: the node has no such block yet`);
      }
      return result;
    },
    async blockTimestamp(height, signal) {
      const block = await call('eth_getBlockByNumber', [hex(height), false], { signal });
      if (!block) throw new FutureHeightError(`block ${height}: the node has no such block yet`);
      return Number(block.timestamp);
    },
    async transactionReceipt(hash, signal) {
      return (await call('eth_getTransactionReceipt', [hash], { signal })) ?? null;
    },
    async logs(filter, signal) {
      const params = {
        fromBlock: hex(filter.fromBlock),
        toBlock: hex(filter.toBlock),
        ...(filter.address ? { address: filter.address } : {}),
        ...(filter.topics ? { topics: filter.topics } : {}),
      };
      return (await call('eth_getLogs', [params], { signal })) ?? [];
    },
    async hasCode(address, height, signal) {
      const code = await call('eth_getCode', [address, hex(height)], { signal });
      return typeof code === 'string' && code.length > 2;
    },
    traceBlock: (height, signal) =>
      call('debug_traceBlockByNumber', [hex(height), { tracer: 'callTracer' }], {
        signal,
        timeoutMs: traceTimeoutMs,
      }),
    async balancesOf(token, holders, height, signal) {
      const out: bigint[] = [];
      for (let i = 0; i < holders.length; i += BALANCE_BATCH) {
        out.push(...(await balanceBatch(token, holders.slice(i, i + BALANCE_BATCH), height, signal)));
      }
      return out;
    },
  };
}
