import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { heightSignal, PrunedHeightError } from '../chain/endpoints.js';
import { errorMessage } from '../common/errors.js';
import { type Exchange, exchangeKey, type Surface } from './format.js';
import { futureAnswer, heightOf, jsonAnswer, type NodeAnswer } from './node-errors.js';

/**
 * One node surface behind a loopback proxy that keeps what it forwards (`weft record`). A request the
 * recording already holds (a resumed recording's) is answered from it without asking the node; the rest go
 * to the surface's URLs in turn (the next on a connection error or timeout) and are kept. The head is `to`:
 * `eth_blockNumber` says so and a question past it gets the node's "future height" error without asking.
 */

export interface ProxyOptions {
  surface: Surface;
  targets: readonly string[];
  to: number;
  timeoutMs: number;
  /** Answers already recorded, by `exchangeKey`. */
  recorded: ReadonlyMap<string, Exchange>;
  /** A new exchange, with the height it asks about. */
  keep(height: number | undefined, exchange: Exchange): void;
  /** Every JSON-RPC call asked, recorded or not (the recorder's coverage reads them). */
  onCall?(call: { method?: string; params?: unknown[] }): void;
  /** The node said a height is pruned (`height`: the one the request named, if any). */
  onPruned(height: number | undefined, text: string): void;
}

export interface RecordingProxy {
  url: string;
  close(): Promise<void>;
}

type JsonCall = { id?: unknown; method?: string; params?: unknown[] };

const json = (value: unknown): NodeAnswer => jsonAnswer(200, value);

export async function startProxy(options: ProxyOptions): Promise<RecordingProxy> {
  const targets = { urls: options.targets, next: 0 };
  const server: Server = createServer((req, res) => {
    handle(options, targets, req).then(
      (a) => res.writeHead(a.status, { 'content-type': a.contentType }).end(a.body),
      (err: unknown) => res.writeHead(502, { 'content-type': 'text/plain' }).end(errorMessage(err)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A surface's URLs and the one to ask first (the last that answered). */
interface Targets {
  urls: readonly string[];
  next: number;
}

async function handle(options: ProxyOptions, targets: Targets, req: IncomingMessage): Promise<NodeAnswer> {
  const { surface, to } = options;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const path = req.url ?? '/';
  const method = req.method === 'POST' ? 'POST' : 'GET';
  const header = req.headers['x-cosmos-block-height'];
  const height = heightOf(surface, path, body, typeof header === 'string' ? header : undefined);
  const calls = surface === 'json_rpc' ? parseCalls(body) : undefined;
  for (const call of [calls ?? []].flat()) options.onCall?.(call);
  if (calls && !Array.isArray(calls) && calls.method === 'eth_blockNumber') return json(headCall(calls, to));
  if (height !== undefined && height > to) return futureAnswer(surface, body, height, to);
  const request = {
    surface,
    method,
    path: surface === 'json_rpc' && path === '/' ? '' : path,
    ...(method === 'POST' ? { body } : {}),
    ...(surface === 'rest' && height !== undefined && typeof header === 'string' ? { height } : {}),
  } as const;
  const known = fromRecording(options, request, calls);
  if (known) return known;

  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof header === 'string') headers['x-cosmos-block-height'] = header;
  // Traces take longer than other calls (the JSON-RPC client allows them 10× the timeout too).
  const timeoutMs = /"debug_trace/.test(body) ? options.timeoutMs * 10 : options.timeoutMs;
  const answer = await ask(targets, path, surface, { method, headers, body }, timeoutMs);
  const pruned = prunedText(surface, answer);
  if (pruned) options.onPruned(height, pruned);
  const isHead = surface === 'rpc' ? path.startsWith('/status') : path.includes('/blocks/latest');
  const batch = Array.isArray(calls) ? splitBatch(calls, answer.body) : undefined;
  if (batch) {
    // Each call of a batch on its own: a client may batch the same calls in another order next time.
    for (const [call, reply] of batch) {
      if (call.method === 'eth_blockNumber') continue;
      const text = JSON.stringify(call);
      options.keep(heightOf(surface, '', text), {
        ...request,
        body: text,
        status: answer.status,
        contentType: answer.contentType,
        response: JSON.stringify(reply),
      });
    }
    return { ...answer, body: JSON.stringify(replaceHead(calls as JsonCall[], answer.body, to)) };
  }
  if (!isHead)
    options.keep(height, {
      ...request,
      status: answer.status,
      contentType: answer.contentType,
      response: answer.body,
    });
  return answer;
}

/** The recorded answer to a request, or, for a batch, to every call of it; undefined when one is missing. */
function fromRecording(
  options: ProxyOptions,
  request: Pick<Exchange, 'surface' | 'method' | 'path' | 'body' | 'height'>,
  calls: JsonCall | JsonCall[] | undefined,
): NodeAnswer | undefined {
  const answerOf = (e: Exchange) => ({
    status: e.status,
    contentType: e.contentType ?? 'application/json',
    body: e.response,
  });
  if (!Array.isArray(calls)) {
    const e = options.recorded.get(exchangeKey(request));
    if (!e) return undefined;
    return calls
      ? { ...answerOf(e), body: JSON.stringify({ ...JSON.parse(e.response), id: calls.id ?? null }) }
      : answerOf(e);
  }
  const replies: unknown[] = [];
  for (const call of calls) {
    if (call.method === 'eth_blockNumber') {
      replies.push(headCall(call, options.to));
      continue;
    }
    const e = options.recorded.get(exchangeKey({ ...request, body: JSON.stringify(call) }));
    if (!e) return undefined;
    replies.push({ ...JSON.parse(e.response), id: call.id ?? null });
  }
  return json(replies);
}

const headCall = (call: JsonCall, to: number) => ({
  jsonrpc: '2.0',
  id: call.id ?? null,
  result: `0x${to.toString(16)}`,
});

/** A batch's answer with its `eth_blockNumber` saying `to`, as a single call's does. */
function replaceHead(calls: JsonCall[], body: string, to: number): unknown {
  const heads = new Set(calls.filter((c) => c.method === 'eth_blockNumber').map((c) => JSON.stringify(c.id)));
  const replies = JSON.parse(body) as Array<{ id?: unknown }>;
  return replies.map((r) =>
    heads.has(JSON.stringify(r?.id)) ? { ...r, result: `0x${to.toString(16)}` } : r,
  );
}

/** Asks the URLs in turn from the last that answered: the next when one cannot be reached or is slow. */
async function ask(
  targets: Targets,
  path: string,
  surface: Surface,
  init: { method: string; headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<NodeAnswer> {
  let failure: unknown;
  for (let i = 0; i < targets.urls.length; i++) {
    const index = (targets.next + i) % targets.urls.length;
    const target = targets.urls[index]!;
    const url = surface === 'json_rpc' && path === '/' ? target : `${target.replace(/\/+$/, '')}${path}`;
    try {
      const answer = await fetch(url, {
        method: init.method,
        headers: init.headers,
        ...(init.method === 'POST' ? { body: init.body } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await answer.text();
      targets.next = index;
      return {
        status: answer.status,
        contentType: answer.headers.get('content-type') ?? 'application/json',
        body,
      };
    } catch (err) {
      failure = err;
    }
  }
  throw failure ?? new Error(`no ${surface} URL to ask`);
}

function parseCalls(body: string): JsonCall | JsonCall[] | undefined {
  try {
    const parsed = JSON.parse(body || 'null') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as JsonCall | JsonCall[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The calls of a JSON-RPC batch with their answers (matched by id). */
function splitBatch(calls: JsonCall[], answer: string): Array<[JsonCall, unknown]> | undefined {
  try {
    const replies = JSON.parse(answer) as unknown;
    if (!Array.isArray(replies)) return undefined;
    const byId = new Map(replies.map((r: { id?: unknown }) => [JSON.stringify(r?.id ?? null), r]));
    return calls.flatMap((call) => {
      const reply = byId.get(JSON.stringify(call?.id ?? null));
      return reply ? [[call, reply] as [JsonCall, unknown]] : [];
    });
  } catch {
    return undefined;
  }
}

/** The node's error text when it says a height is pruned (errors only: a block may hold any text). */
function prunedText(surface: Surface, answer: NodeAnswer): string | undefined {
  let parsed: any;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  const texts: unknown[] =
    surface === 'rpc'
      ? [parsed?.error?.data, parsed?.error?.message]
      : surface === 'rest'
        ? answer.status >= 400
          ? [parsed?.message]
          : []
        : [parsed].flat().map((r: any) => r?.error?.message);
  return texts.find(
    (t): t is string => typeof t === 'string' && heightSignal(t) instanceof PrunedHeightError,
  );
}
