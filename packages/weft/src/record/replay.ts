import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../common/logger.js';
import { RecordingError } from './errors.js';
import {
  type Exchange,
  exchangeKey,
  type RecordingManifest,
  readHeight,
  readLookups,
  readManifest,
  type Surface,
} from './format.js';
import {
  cometError,
  futureJsonRpc,
  futureText,
  gatewayError,
  heightOf,
  jsonAnswer,
  type NodeAnswer,
} from './node-errors.js';

/**
 * `weft replay`: serves a recording on the surfaces of the chain's nodes (CometBFT RPC, Cosmos REST and,
 * on EVM, JSON-RPC), so `weft indexer` runs on it unchanged. Recorded requests get the node's answer byte
 * for byte (a JSON-RPC answer's `id` set to the caller's). The head is the last recorded height: `/status`,
 * the REST latest block, `eth_blockNumber` say so, and a height past it gets the node's "future height"
 * error. A request the recording lacks gets the error a node gives for what it does not hold, and is
 * counted (`weft_replay_unrecorded_requests_total`) and logged.
 */

export interface ReplayOptions {
  dir: string;
  /** The manifest to read instead of DIR/manifest.json. */
  manifestFile?: string;
  host: string;
  /** RPC on base, REST on base+1, JSON-RPC on base+2 (the devnet's layout); 0 picks free ports. */
  portBase: number;
  logger: Logger;
  registry?: Registry;
}

export interface ReplayUrls {
  rpc: string;
  rest: string;
  /** EVM recordings only. */
  jsonRpc?: string;
}

export interface Replay {
  readonly manifest: RecordingManifest;
  readonly urls: ReplayUrls;
  /** The head the surfaces report; a recorded height (tests step a scattered recording through). */
  head(): number;
  setHead(height: number): void;
  /** Requests answered "not recorded" so far. */
  unrecorded(): number;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json';
const HEIGHT_HEADER = 'x-cosmos-block-height';
/** Bodies a node would take (a JSON-RPC batch, an EVM call); a larger one is refused, not kept. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

type Answer = NodeAnswer;

const rpcResult = (result: unknown) => jsonAnswer(200, { jsonrpc: '2.0', id: -1, result });

export async function startReplay(options: ReplayOptions): Promise<Replay> {
  const manifest = readManifest(options.dir, options.manifestFile);
  if (!manifest) throw new RecordingError(`no recording at ${options.dir}: manifest.json is missing`);
  if (manifest.heights.length === 0)
    throw new RecordingError(`the recording at ${options.dir} holds no height`);
  const { logger } = options;
  const table = new Map<string, Exchange>();
  for (const e of readLookups(options.dir)) table.set(exchangeKey(e), e);
  const blocks = new Map<number, Record<string, any>>();
  for (const height of manifest.heights) {
    for (const e of readHeight(options.dir, height).exchanges) {
      table.set(exchangeKey(e), e);
      if (e.surface === 'rpc' && e.path === `/block?height=${height}` && e.status === 200)
        blocks.set(height, JSON.parse(e.response).result);
    }
  }
  const recorded = new Set(manifest.heights);
  let head = manifest.heights.at(-1)!;
  let unrecorded = 0;
  const counter = new Counter({
    name: 'weft_replay_unrecorded_requests_total',
    help: 'Requests the recording holds no answer for, by surface',
    labelNames: ['surface'],
    registers: options.registry ? [options.registry] : [],
  });
  const missing = (surface: Surface, what: string) => {
    unrecorded += 1;
    counter.inc({ surface });
    logger.warn({ surface, request: what }, 'not recorded');
  };
  const lowest = manifest.heights[0]!;
  /** The node's error for a height it does not hold, or undefined when the height is recorded. */
  const heightProblem = (height: number): string | undefined => {
    if (height > head) return futureText(height, head);
    if (!recorded.has(height)) return `height ${height} is not available, lowest height is ${lowest}`;
    return undefined;
  };

  const rpc = (path: string): Answer => {
    const url = new URL(path, 'http://replay');
    if (url.pathname === '/status') return rpcResult(statusOf(manifest, head, blocks.get(head)));
    const height = url.searchParams.get('height');
    if (height !== null && /^\d+$/.test(height)) {
      const problem = heightProblem(Number(height));
      if (problem) return cometError(problem);
    }
    const e = table.get(exchangeKey({ surface: 'rpc', method: 'GET', path }));
    if (e) return recordedAnswer(e);
    missing('rpc', path);
    return cometError(`weft replay: ${url.pathname} is not recorded for this request`);
  };

  const rest = (method: 'GET' | 'POST', path: string, body: string, height: number | undefined): Answer => {
    const url = new URL(path, 'http://replay');
    if (url.pathname === '/cosmos/base/tendermint/v1beta1/blocks/latest') {
      const block = blocks.get(head);
      if (block)
        return jsonAnswer(200, { block_id: block.block_id, block: block.block, sdk_block: block.block });
    }
    if (url.pathname === '/cosmos/base/tendermint/v1beta1/node_info') {
      const e = table.get(exchangeKey({ surface: 'rest', method: 'GET', path }));
      return e ? recordedAnswer(e) : jsonAnswer(200, nodeInfoOf(manifest));
    }
    if (height !== undefined && height > head)
      return gatewayError(400, 3, `cannot query with height in the future; please provide a valid height`);
    const e = table.get(exchangeKey({ surface: 'rest', method, path, body, height }));
    if (e) return recordedAnswer(e);
    const atHeight = /\/txs\/block\/(\d+)$/.exec(url.pathname);
    const problem = atHeight ? heightProblem(Number(atHeight[1])) : undefined;
    if (problem) return gatewayError(400, 3, problem);
    missing('rest', `${method} ${path}${height === undefined ? '' : ` @${height}`}`);
    // 12 (Unimplemented): a query the recording cannot answer.
    return gatewayError(501, 12, `weft replay: ${url.pathname} is not recorded for this request`);
  };

  const jsonRpcOne = (call: Record<string, any>): Record<string, unknown> => {
    const id = call?.id ?? null;
    if (call?.method === 'eth_blockNumber') return { jsonrpc: '2.0', id, result: `0x${head.toString(16)}` };
    const body = JSON.stringify(call);
    const e = table.get(exchangeKey({ surface: 'json_rpc', method: 'POST', path: '', body }));
    if (e) return { ...(JSON.parse(e.response) as Record<string, unknown>), id };
    const height = heightOf('json_rpc', '', body);
    if (height !== undefined && height > head) return futureJsonRpc(call, height);
    missing('json_rpc', body);
    return {
      jsonrpc: '2.0',
      id,
      error: { code: -32000, message: `weft replay: ${call?.method} is not recorded for these params` },
    };
  };

  const jsonRpc = (body: string): Answer => {
    const e = table.get(exchangeKey({ surface: 'json_rpc', method: 'POST', path: '', body }));
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return jsonAnswer(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    }
    if (e && !Array.isArray(parsed)) return { ...recordedAnswer(e), body: withId(e.response, parsed) };
    if (e && Array.isArray(parsed)) return recordedAnswer(e);
    return jsonAnswer(
      200,
      Array.isArray(parsed) ? parsed.map(jsonRpcOne) : jsonRpcOne(parsed as Record<string, any>),
    );
  };

  const servers: Server[] = [];
  const serve = async (offset: number, handle: (req: IncomingMessage, body: string) => Answer) => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY_BYTES) chunks.push(c);
      });
      req.on('end', () => {
        if (size > MAX_BODY_BYTES)
          return send(res, gatewayError(413, 8, `request body over ${MAX_BODY_BYTES} bytes`));
        send(res, handle(req, Buffer.concat(chunks).toString('utf8')));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.portBase === 0 ? 0 : options.portBase + offset, options.host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    return `http://${options.host}:${port}`;
  };
  try {
    const urls: ReplayUrls = {
      rpc: await serve(0, (req) => rpc(req.url ?? '/')),
      rest: await serve(1, (req, body) => {
        const h = req.headers[HEIGHT_HEADER];
        const method = req.method === 'POST' ? 'POST' : 'GET';
        return rest(
          method,
          req.url ?? '/',
          body,
          typeof h === 'string' && /^\d+$/.test(h) ? Number(h) : undefined,
        );
      }),
      ...(manifest.vm_type === 'evm' ? { jsonRpc: await serve(2, (_req, body) => jsonRpc(body)) } : {}),
    };
    return {
      manifest,
      urls,
      head: () => head,
      setHead(height) {
        if (!recorded.has(height)) throw new RecordingError(`height ${height} is not in the recording`);
        head = height;
      },
      unrecorded: () => unrecorded,
      close: () => closeAll(servers),
    };
  } catch (err) {
    await closeAll(servers);
    throw err;
  }
}

function recordedAnswer(e: Exchange): Answer {
  return { status: e.status, contentType: e.contentType ?? JSON_TYPE, body: e.response };
}

/** The recorded JSON-RPC answer with the caller's `id` (the only byte a replay changes). */
function withId(response: string, call: unknown): string {
  const id = (call as { id?: unknown } | null)?.id ?? null;
  try {
    return JSON.stringify({ ...(JSON.parse(response) as Record<string, unknown>), id });
  } catch {
    return response;
  }
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, {
    'content-type': answer.contentType,
    'content-length': Buffer.byteLength(answer.body),
  });
  res.end(answer.body);
}

function closeAll(servers: Server[]): Promise<void> {
  return Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  ).then(() => undefined);
}

function statusOf(manifest: RecordingManifest, head: number, block: Record<string, any> | undefined) {
  return {
    node_info: { network: manifest.chain_id, moniker: 'weft-replay', version: '0.38' },
    sync_info: {
      latest_block_hash: block?.block_id?.hash ?? '',
      latest_block_height: String(head),
      latest_block_time: block?.block?.header?.time ?? '',
      earliest_block_height: String(manifest.heights[0]),
      catching_up: false,
    },
    validator_info: {},
  };
}

function nodeInfoOf(manifest: RecordingManifest) {
  return {
    default_node_info: { network: manifest.chain_id, moniker: 'weft-replay' },
    application_version: { name: 'weft-replay', app_name: 'weft-replay', version: manifest.weft_version },
  };
}
