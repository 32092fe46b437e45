import { Agent, request } from 'undici';
import { BaseError, UpstreamError } from '../common/errors.js';
import { timed } from '../common/stage-times.js';

/**
 * A node surface served by several URLs: calls rotate round-robin over the healthy ones, a URL that
 * fails three times in a row is skipped for five minutes, and every request has a timeout. Failures
 * become errors of the project's tree, so callers can tell node trouble (retry, maybe more slowly) from
 * answers that will not change (4xx, bad data) and from the two height signals.
 */

/** The node has not reached the height yet; ask again later. Not a sign of node trouble. */
export class FutureHeightError extends UpstreamError {
  override name = 'FutureHeightError';
  constructor(
    message: string,
    /** The node's head when it said so, if it told. */
    readonly latest?: number,
  ) {
    super(message, { code: 'WEFT_ERR_FUTURE_HEIGHT', retryable: true });
  }
}

/** The node no longer keeps the height (pruned); asking again will not help. */
export class PrunedHeightError extends UpstreamError {
  override name = 'PrunedHeightError';
  constructor(
    message: string,
    /** The lowest height the node still serves, if it told. */
    readonly lowest?: number,
  ) {
    super(message, { code: 'WEFT_ERR_PRUNED_HEIGHT', retryable: false, status: 502 });
  }
}

/** The node answered the query with an error of its own (a revert, an unknown contract, a 4xx). */
export class NodeQueryError extends UpstreamError {
  override name = 'NodeQueryError';
  constructor(
    message: string,
    readonly httpStatus: number,
    /** gRPC code (REST), JSON-RPC error code (CometBFT, EVM), if any. */
    readonly nodeCode?: number,
    /** The node's own error text, without the URL. */
    readonly detail: string = message,
  ) {
    super(message, { code: 'WEFT_ERR_NODE_QUERY', retryable: false, status: 502 });
  }
}

export type UpstreamFailure = 'timeout' | 'unavailable' | 'rate-limited' | 'incomplete';

/** Node trouble a retry may fix: timeouts, 5xx, 429, dropped or refused connections, short answers. */
export class NodeUnavailableError extends UpstreamError {
  override name = 'NodeUnavailableError';
  constructor(
    message: string,
    readonly failure: UpstreamFailure,
    options: { cause?: unknown } = {},
  ) {
    super(message, { code: `WEFT_ERR_UPSTREAM_${failure.toUpperCase().replace('-', '_')}`, ...options });
  }
}

/** True for errors that say the node is struggling (callers slow down), not for height signals. */
export function isNodeTrouble(err: unknown): err is NodeUnavailableError {
  return err instanceof NodeUnavailableError;
}

export interface EndpointsOptions {
  /** Per-request timeout in ms. */
  timeoutMs: number;
  /** Consecutive failures after which a URL is skipped. */
  unhealthyAfter?: number;
  /** How long an unhealthy URL is skipped. */
  recoverAfterMs?: number;
  now?: () => number;
}

export interface EndpointHealth {
  url: string;
  healthy: boolean;
  consecutiveFailures: number;
}

export interface HttpAnswer {
  url: string;
  status: number;
  body: string;
}

export interface RequestInit {
  method?: 'GET' | 'POST';
  /** Path and query, appended to the endpoint URL. */
  path: string;
  body?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface Endpoints {
  readonly urls: readonly string[];
  /**
   * Sends one request, trying the URLs in turn while they fail with node trouble. `read` turns an answer
   * into a value or throws; a thrown height signal or query error ends the rotation at once.
   */
  request<T>(init: RequestInit, read: (answer: HttpAnswer) => T): Promise<T>;
  health(): EndpointHealth[];
  /** Closes the kept-alive connections. */
  close(): Promise<void>;
}

interface EndpointState {
  url: string;
  failures: number;
  lastFailure: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

export function createEndpoints(urls: readonly string[], options: EndpointsOptions): Endpoints {
  if (urls.length === 0) throw new Error('at least one endpoint URL is needed');
  const unhealthyAfter = options.unhealthyAfter ?? 3;
  const recoverAfterMs = options.recoverAfterMs ?? 300_000;
  const now = options.now ?? Date.now;
  const states: EndpointState[] = urls.map((url) => ({
    url: url.replace(/\/+$/, ''),
    failures: 0,
    lastFailure: 0,
  }));
  let cursor = 0;

  const healthy = (s: EndpointState) =>
    s.failures < unhealthyAfter || now() - s.lastFailure >= recoverAfterMs;

  /** Healthy URLs from the next round-robin position, then the unhealthy ones as a last resort. */
  const order = (): EndpointState[] => {
    if (states.length === 1) return states;
    const start = cursor;
    cursor = (cursor + 1) % states.length;
    const rotated = [...states.slice(start), ...states.slice(0, start)];
    return [...rotated.filter(healthy), ...rotated.filter((s) => !healthy(s))];
  };

  // Kept-alive connections, many per host: the indexer has dozens of heights in flight.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256 });

  const send = async (state: EndpointState, init: RequestInit): Promise<HttpAnswer> => {
    const timeoutMs = init.timeoutMs ?? options.timeoutMs;
    const url = `${state.url}${init.path}`;
    try {
      // undici's own timeouts (no answer / a stalled body), cheaper than an AbortSignal per request.
      const response = await request(url, {
        method: init.method ?? 'GET',
        body: init.body,
        headers: init.body ? { ...JSON_HEADERS, ...init.headers } : init.headers,
        signal: init.signal,
        dispatcher: agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      return { url, status: response.statusCode, body: await response.body.text() };
    } catch (err) {
      if (init.signal?.aborted) throw init.signal.reason ?? err;
      const code = (err as { code?: string }).code;
      if (
        code === 'UND_ERR_HEADERS_TIMEOUT' ||
        code === 'UND_ERR_BODY_TIMEOUT' ||
        code === 'UND_ERR_CONNECT_TIMEOUT'
      ) {
        throw new NodeUnavailableError(`${url}: no answer within ${timeoutMs} ms`, 'timeout', { cause: err });
      }
      throw new NodeUnavailableError(`${url}: ${connectionText(err)}`, 'unavailable', { cause: err });
    }
  };

  return {
    urls: states.map((s) => s.url),
    async request(init, read) {
      let last: unknown;
      for (const state of order()) {
        try {
          const value = timed('parse', read, await send(state, init));
          state.failures = 0;
          return value;
        } catch (err) {
          if (!isNodeTrouble(err)) {
            // The node answered; it is alive even when the answer is an error.
            if (err instanceof BaseError) state.failures = 0;
            throw err;
          }
          state.failures += 1;
          state.lastFailure = now();
          last = err;
          if (init.signal?.aborted) break;
        }
      }
      throw last;
    },
    health: () => states.map((s) => ({ url: s.url, healthy: healthy(s), consecutiveFailures: s.failures })),
    close: () => agent.close(),
  };
}

/** Error text of a failed request, with the socket error's code. */
function connectionText(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  if (code) return `connection failed (${code}${message ? `: ${message}` : ''})`;
  return message ?? String(err);
}

/** Status codes that mean "try again later": 429 and the 5xx a proxy or an overloaded node gives. */
export function troubleOfStatus(answer: HttpAnswer): NodeUnavailableError | undefined {
  if (answer.status === 429) {
    return new NodeUnavailableError(`${answer.url}: rate limited (HTTP 429)`, 'rate-limited');
  }
  if (answer.status >= 500) {
    return new NodeUnavailableError(
      `${answer.url}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`.trim(),
      'unavailable',
    );
  }
  return undefined;
}

/** Parses a JSON body; a body that is not JSON is bad data from the node (not retried). */
export function parseJson(answer: HttpAnswer): any {
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new NodeQueryError(
      `${answer.url}: HTTP ${answer.status} answer is not JSON: ${answer.body.slice(0, 200)}`,
      answer.status,
    );
  }
}

/** Height texts nodes use, with the height they name. */
const FUTURE_PATTERNS = [
  /must be less than or equal to the current blockchain height (\d+)/,
  /greater than the current height (\d+)/,
  /invalid height/,
  /cannot query with height in the future/,
  /requested block height is bigger the/,
  /requested height is greater than the latest block height/,
  /^block #\d+ not found/,
];
const PRUNED_PATTERNS = [
  /is not available, lowest height is (\d+)/,
  /could not find results for height #\d+/,
  /version does not exist/,
];

/** The height signal in a node's error text, if there is one. */
export function heightSignal(text: string): FutureHeightError | PrunedHeightError | undefined {
  for (const pattern of PRUNED_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return new PrunedHeightError(text, m[1] === undefined ? undefined : Number(m[1]));
  }
  for (const pattern of FUTURE_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return new FutureHeightError(text, m[1] === undefined ? undefined : Number(m[1]));
  }
  return undefined;
}
