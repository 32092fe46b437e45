import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commitHash, packageVersion } from '../common/build.js';
import type { Logger } from '../common/logger.js';
import type { IndexerConfig } from '../indexer/config.js';
import { createIndexer } from '../indexer/indexer.js';
import { openDb } from '../store/db.js';
import { RecordingError } from './errors.js';
import {
  type Exchange,
  exchangeKey,
  RECORDING_FORMAT,
  type RecordingManifest,
  readLookups,
  readManifest,
  recordedHeights,
  type Surface,
  writeHeight,
  writeLookups,
  writeManifest,
} from './format.js';
import { futureAnswer, heightOf, type NodeAnswer } from './node-errors.js';

/**
 * `weft record`: runs weft's own indexer (on a throw-away embedded store) against the node through
 * loopback proxies that keep every answer, so a recording holds exactly what the indexer reads. Each
 * exchange is filed under the height it asks about (a `height` query, the REST height header or path, a
 * JSON-RPC block number) or, naming none, under the look-ups. A height's file is written once every stage
 * of the indexer has passed it, so an interrupted recording resumes after its last whole height. The proxies
 * say the head is `--to`: a question past it gets the node's "future height" error without asking.
 */

export interface RecordOptions {
  config: IndexerConfig;
  from: number;
  to: number;
  out: string;
  logger: Logger;
  signal?: AbortSignal;
}

export interface RecordResult {
  heights: number;
  exchanges: number;
  resumedAt?: number;
}

export async function record(options: RecordOptions): Promise<RecordResult> {
  const { config, from, to, out, logger } = options;
  if (to < from) throw new RecordingError(`--to ${to} is below --from ${from}`);
  const previous = readManifest(out);
  if (previous && (previous.chain_id !== config.chainId || previous.vm_type !== config.vm))
    throw new RecordingError(
      `${out} holds a recording of ${previous.chain_id} (${previous.vm_type}), not ${config.chainId}`,
    );
  const done = new Set(recordedHeights(out));
  let start = from;
  while (done.has(start) && start <= to) start += 1;
  const now = new Date().toISOString();
  const manifest: RecordingManifest = {
    format: RECORDING_FORMAT,
    chain_id: config.chainId,
    vm_type: config.vm,
    nodes: { rpc: config.rpcUrls, rest: config.restUrls, json_rpc: config.jsonRpcUrls },
    from,
    to,
    heights: [...done].filter((h) => h >= from && h <= to).sort((a, b) => a - b),
    weft_version: packageVersion(),
    weft_commit: commitHash(),
    recorded_at: previous?.recorded_at ?? now,
    updated_at: now,
  };
  if (start > to) return { heights: manifest.heights.length, exchanges: 0 };
  await checkAvailable(config.rpcUrls[0]!, start, to);

  const pending = new Map<number, Exchange[]>();
  const lookups = new Map<string, Exchange>(readLookups(out).map((e) => [exchangeKey(e), e]));
  let exchanges = 0;
  let written = start - 1;
  const keep = (height: number | undefined, e: Exchange) => {
    exchanges += 1;
    // Questions about heights already written (a contract's code the block before) are look-ups too.
    if (height === undefined || height <= written || height > to) lookups.set(exchangeKey(e), e);
    else pending.set(height, [...(pending.get(height) ?? []), e]);
  };
  const proxies: Server[] = [];
  const proxy = async (surface: Surface, target: string) => {
    const server = createServer((req, res) => {
      forward(surface, target, req, to, keep).then(
        (a) => res.writeHead(a.status, { 'content-type': a.contentType }).end(a.body),
        (err: unknown) => res.writeHead(502, { 'content-type': 'text/plain' }).end(String(err)),
      );
    });
    proxies.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const db = await openDb({ dataDir: 'memory://' });
  try {
    const indexerConfig: IndexerConfig = {
      ...config,
      rpcUrls: [await proxy('rpc', config.rpcUrls[0]!)],
      restUrls: [await proxy('rest', config.restUrls[0]!)],
      jsonRpcUrls: config.vm === 'evm' ? [await proxy('json_rpc', config.jsonRpcUrls[0]!)] : [],
      startHeight: start,
      dataDir: 'memory://',
      metrics: { ...config.metrics, enabled: false },
    };
    const indexer = createIndexer(indexerConfig, { logger, db });
    const stop = new AbortController();
    options.signal?.addEventListener('abort', () => stop.abort());
    const running = indexer.run(stop.signal);
    let failed: unknown;
    running.catch((err: unknown) => {
      failed = err;
    });
    const flush = () => {
      const s = indexer.status();
      const passed = Math.min(
        s.written,
        indexerConfig.internalTx ? (s.internalTxHeight ?? 0) : Infinity,
        indexerConfig.richList ? (s.richListHeight ?? 0) : Infinity,
        to,
      );
      for (let h = written + 1; h <= passed; h++) {
        writeHeight(out, { height: h, exchanges: pending.get(h) ?? [] });
        pending.delete(h);
        manifest.heights.push(h);
      }
      if (passed > written) {
        written = passed;
        writeLookups(out, [...lookups.values()]);
        writeManifest(out, { ...manifest, updated_at: new Date().toISOString() });
        logger.info({ height: written, to }, 'recorded');
      }
    };
    while (written < to && !stop.signal.aborted) {
      if (failed) throw failed;
      await new Promise((r) => setTimeout(r, 100));
      flush();
    }
    stop.abort();
    await running.catch(() => undefined);
    if (failed && written < to) throw failed;
    return { heights: manifest.heights.length, exchanges, ...(start > from ? { resumedAt: start } : {}) };
  } finally {
    await db.close();
    await Promise.all(proxies.map((p) => new Promise<void>((r) => p.close(() => r()))));
  }
}

/** A start height the node has pruned is an error naming it (CometBFT's `earliest_block_height`). */
async function checkAvailable(rpc: string, from: number, to: number): Promise<void> {
  const status = (await (await fetch(`${rpc.replace(/\/+$/, '')}/status`)).json()) as Record<string, any>;
  const sync = status.result?.sync_info ?? {};
  const earliest = Number(sync.earliest_block_height ?? 1);
  const latest = Number(sync.latest_block_height ?? 0);
  if (from < earliest)
    throw new RecordingError(
      `height ${from} is pruned on the node at ${rpc}: its earliest height is ${earliest}`,
      {
        hint: `record from --from ${earliest} on, or ask an archive node`,
      },
    );
  if (to > latest)
    throw new RecordingError(`height ${to} is past the node's head ${latest}`, {
      hint: `record to --to ${latest} at most`,
    });
}

type Answer = NodeAnswer;

/** Answers of the head, which a recording caps at `--to` (a replay makes its own). */
function headAnswer(surface: Surface, body: string, to: number): Answer | undefined {
  const json = (value: unknown) => ({
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify(value),
  });
  if (surface === 'json_rpc') {
    const call = JSON.parse(body || '{}') as { id?: unknown; method?: string };
    if (call.method === 'eth_blockNumber')
      return json({ jsonrpc: '2.0', id: call.id ?? null, result: `0x${to.toString(16)}` });
  }
  return undefined;
}

async function forward(
  surface: Surface,
  target: string,
  req: IncomingMessage,
  to: number,
  keep: (height: number | undefined, e: Exchange) => void,
): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const path = req.url ?? '/';
  const header = req.headers['x-cosmos-block-height'];
  const height = heightOf(surface, path, body, typeof header === 'string' ? header : undefined);
  const capped = headAnswer(surface, body, to);
  if (capped) return capped;
  if (height !== undefined && height > to) return futureAnswer(surface, body, height, to);
  const method = req.method === 'POST' ? 'POST' : 'GET';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof header === 'string') headers['x-cosmos-block-height'] = header;
  const url = surface === 'json_rpc' && path === '/' ? target : `${target.replace(/\/+$/, '')}${path}`;
  const answer = await fetch(url, { method, headers, ...(method === 'POST' ? { body } : {}) });
  const text = await answer.text();
  const contentType = answer.headers.get('content-type') ?? 'application/json';
  const isHead = surface === 'rpc' ? path.startsWith('/status') : path.includes('/blocks/latest');
  const batch = surface === 'json_rpc' ? splitBatch(body, text) : undefined;
  if (batch) {
    // Each call of a batch on its own: a client may batch the same calls in another order next time.
    for (const [call, reply] of batch)
      keep(heightOf(surface, '', call), {
        surface,
        method,
        path: '',
        body: call,
        status: answer.status,
        contentType,
        response: reply,
      });
  } else if (!isHead) {
    keep(height, {
      surface,
      method,
      path: surface === 'json_rpc' && path === '/' ? '' : path,
      ...(method === 'POST' ? { body } : {}),
      ...(surface === 'rest' && height !== undefined && typeof header === 'string' ? { height } : {}),
      status: answer.status,
      contentType,
      response: text,
    });
  }
  return { status: answer.status, contentType, body: text };
}

/** The calls of a JSON-RPC batch with their answers (matched by id), or undefined for a single call. */
function splitBatch(body: string, answer: string): Array<[string, string]> | undefined {
  try {
    const calls = JSON.parse(body) as unknown;
    const replies = JSON.parse(answer) as unknown;
    if (!Array.isArray(calls) || !Array.isArray(replies)) return undefined;
    const byId = new Map(replies.map((r: { id?: unknown }) => [JSON.stringify(r?.id ?? null), r]));
    return calls.flatMap((call: { id?: unknown }) => {
      const reply = byId.get(JSON.stringify(call?.id ?? null));
      return reply ? [[JSON.stringify(call), JSON.stringify(reply)] as [string, string]] : [];
    });
  } catch {
    return undefined;
  }
}
