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

/** CometBFT v0.38 RPC (URI calls): the chain head and the two per-height documents an indexer reads. */

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

export interface CometClient {
  readonly endpoints: Endpoints;
  status(signal?: AbortSignal): Promise<CometStatus>;
  block(height: number, signal?: AbortSignal): Promise<CometBlock>;
  /** `/block_results` result (`txs_results`, `finalize_block_events`, …). */
  blockResults(height: number, signal?: AbortSignal): Promise<Record<string, any>>;
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
  };
}
