import {
  createEndpoints,
  type Endpoints,
  type EndpointsOptions,
  type HttpAnswer,
  heightSignal,
  NodeQueryError,
  parseJson,
  troubleOfStatus,
} from './endpoints.js';

/**
 * CometBFT v0.38 RPC (URI calls): the chain head, the two per-height documents an indexer reads, and
 * `/tx_search` over the node's tx index.
 */

export interface CometStatus {
  /** `node_info.network`. */
  chainId: string;
  latestHeight: number;
  earliestHeight: number;
  catchingUp: boolean;
}

/** `/block` result: `{block_id, block}` as the node wrote it. */
export interface CometBlock {
  block_id: { hash: string; [key: string]: unknown };
  block: { header: Record<string, any>; data: { txs: string[] | null }; [key: string]: unknown };
}

/** One tx of a `/tx_search` answer. */
export interface CometTxResult {
  /** Uppercase hex. */
  hash: string;
  height: number;
  index: number;
  /** `tx_result`: `code`, `log`, `events`, … as the node wrote them. */
  txResult: Record<string, any>;
}

export interface TxSearchOptions {
  /** 1-based (default 1). */
  page?: number;
  /** 1 … 100 (default 30, CometBFT's). */
  perPage?: number;
  orderBy?: 'asc' | 'desc';
  signal?: AbortSignal;
}

export interface CometClient {
  readonly endpoints: Endpoints;
  status(signal?: AbortSignal): Promise<CometStatus>;
  block(height: number, signal?: AbortSignal): Promise<CometBlock>;
  /** `/block_results` result (`txs_results`, `finalize_block_events`, …). */
  blockResults(height: number, signal?: AbortSignal): Promise<Record<string, any>>;
  /** `/tx_search` of an event query (`recv_packet.packet_sequence='5' AND …`): one page and the total. */
  txSearch(query: string, options?: TxSearchOptions): Promise<{ txs: CometTxResult[]; totalCount: number }>;
}

/** A CometBFT answer: `result`, or its `error.data` read for the height signals. */
function readResult(answer: HttpAnswer): any {
  const looksJson = answer.body.trimStart().startsWith('{');
  if (!looksJson) {
    throw troubleOfStatus(answer) ?? parseJson(answer);
  }
  const json = parseJson(answer);
  if (json?.error) {
    const { code, message, data } = json.error as { code?: number; message?: string; data?: string };
    const text = `${message ?? 'error'}${data ? `: ${data}` : ''}`;
    const signal = heightSignal(text);
    if (signal) throw signal;
    if (answer.status === 429 || answer.status >= 502) throw troubleOfStatus(answer);
    throw new NodeQueryError(`${answer.url}: ${text}`, answer.status, code, text);
  }
  if (answer.status !== 200 || json?.result === undefined) {
    throw troubleOfStatus(answer) ?? new NodeQueryError(`${answer.url}: no result`, answer.status);
  }
  return json.result;
}

export function createCometClient(urls: readonly string[], options: EndpointsOptions): CometClient {
  const endpoints = createEndpoints(urls, options);
  const get = (path: string, signal?: AbortSignal) => endpoints.request({ path, signal }, readResult);
  return {
    endpoints,
    async status(signal) {
      const result = await get('/status', signal);
      const sync = result.sync_info ?? {};
      return {
        chainId: String(result.node_info?.network ?? ''),
        latestHeight: Number(sync.latest_block_height ?? 0),
        earliestHeight: Number(sync.earliest_block_height ?? 0),
        catchingUp: Boolean(sync.catching_up),
      };
    },
    block: (height, signal) => get(`/block?height=${height}`, signal),
    blockResults: (height, signal) => get(`/block_results?height=${height}`, signal),
    async txSearch(query, options = {}) {
      const params = new URLSearchParams({ query: JSON.stringify(query) });
      if (options.page !== undefined) params.set('page', String(options.page));
      if (options.perPage !== undefined) params.set('per_page', String(options.perPage));
      if (options.orderBy) params.set('order_by', JSON.stringify(options.orderBy));
      const result = await get(`/tx_search?${params}`, options.signal);
      const txs = ((result.txs ?? []) as Array<Record<string, any>>).map((tx) => ({
        hash: String(tx.hash).toUpperCase(),
        height: Number(tx.height),
        index: Number(tx.index ?? 0),
        txResult: (tx.tx_result ?? {}) as Record<string, any>,
      }));
      return { txs, totalCount: Number(result.total_count ?? txs.length) };
    },
  };
}
