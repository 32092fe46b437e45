import type { Surface } from './format.js';

/**
 * The answers nodes give for a height past their head, which a recording (capped at `--to`) and a replay
 * (at its last height) both give: CometBFT's JSON-RPC error (HTTP 500), the REST gateway's gRPC error, and
 * on JSON-RPC `null` for a block or receipts that do not exist yet, geth's "block #N not found" otherwise.
 */

export interface NodeAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** A JSON answer of `status`. */
export const jsonAnswer = (status: number, value: unknown): NodeAnswer => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(value),
});

export const futureText = (height: number, head: number) =>
  `height ${height} must be less than or equal to the current blockchain height ${head}`;

/** CometBFT's URI calls answer errors with HTTP 500 and a JSON-RPC error whose `data` says what. */
export const cometError = (data: string) =>
  jsonAnswer(500, { jsonrpc: '2.0', id: -1, error: { code: -32603, message: 'Internal error', data } });

/** The gRPC gateway's error: a gRPC code and message. */
export const gatewayError = (status: number, code: number, message: string) =>
  jsonAnswer(status, { code, message, details: [] });

const NULL_WHEN_ABSENT = new Set(['eth_getBlockReceipts', 'eth_getBlockByNumber', 'eth_getBlockByHash']);

/** One JSON-RPC call's answer about a block past the head. */
export function futureJsonRpc(
  call: { id?: unknown; method?: string },
  height: number,
): Record<string, unknown> {
  const id = call.id ?? null;
  return NULL_WHEN_ABSENT.has(String(call.method))
    ? { jsonrpc: '2.0', id, result: null }
    : { jsonrpc: '2.0', id, error: { code: -32000, message: `block #${height} not found` } };
}

export function futureAnswer(
  surface: 'rpc' | 'rest' | 'json_rpc',
  body: string,
  height: number,
  head: number,
) {
  if (surface === 'rpc') return cometError(futureText(height, head));
  if (surface === 'rest') return gatewayError(400, 3, futureText(height, head));
  const calls = JSON.parse(body || '{}') as unknown;
  return jsonAnswer(
    200,
    Array.isArray(calls)
      ? calls.map((c) => futureJsonRpc(c, height))
      : futureJsonRpc(calls as object, height),
  );
}

/** The height a request asks about, if it names one. */
export function heightOf(surface: Surface, path: string, body: string, header?: string): number | undefined {
  if (surface === 'rpc') {
    const h = new URL(path, 'http://node').searchParams.get('height');
    return h && /^\d+$/.test(h) ? Number(h) : undefined;
  }
  if (surface === 'rest') {
    if (header && /^\d+$/.test(header)) return Number(header);
    const m = /\/(?:txs\/block|blocks)\/(\d+)(?:\?|$)/.exec(path);
    return m ? Number(m[1]) : undefined;
  }
  try {
    const calls = [JSON.parse(body)].flat() as Array<{ params?: unknown[] }>;
    for (const call of calls) {
      const tag = (call.params ?? []).find((p) => typeof p === 'string' && /^0x[0-9a-f]{1,15}$/i.test(p));
      if (typeof tag === 'string') return Number(tag);
    }
  } catch {}
  return undefined;
}
