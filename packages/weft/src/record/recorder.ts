import { commitHash, packageVersion } from '../common/build.js';
import { errorMessage } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { IndexerConfig } from '../indexer/config.js';
import { createIndexer, type IndexerStatus } from '../indexer/indexer.js';
import { openDb } from '../store/db.js';
import { createBlockWriter } from '../store/writer.js';
import { createRichListCoverage } from './coverage.js';
import { RecordingError } from './errors.js';
import {
  type Exchange,
  exchangeKey,
  RECORDING_FORMAT,
  type RecordingManifest,
  readHeight,
  readLookups,
  readManifest,
  recordedHeights,
  type Surface,
  writeHeight,
  writeLookups,
  writeManifest,
} from './format.js';
import { type RecordingProxy, startProxy } from './proxy.js';

/**
 * `weft record`: runs weft's own indexer (on a throw-away embedded store) against the node through
 * loopback proxies that keep every answer, so a recording holds exactly what the indexer reads. Each
 * exchange is filed under the height it asks about (a `height` query, the REST height header or path, a
 * JSON-RPC block number) or, naming none, under the look-ups. A height's file is written once every stage
 * of the indexer has passed it, so an interrupted recording resumes after its last whole height. The proxies
 * say the head is `--to`: a question past it gets the node's "future height" error without asking. A node
 * saying a height is pruned stops the recording with an error naming it (the indexer would wait for it).
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
  await checkAvailable(config.rpcUrls, start, to, config.queryTimeoutMs);

  // A resumed recording runs the indexer from --from again, as an uninterrupted one did (the rich list's
  // snapshot is taken there): what is recorded already is answered from the recording, the rest is asked.
  const recorded = new Map<string, Exchange>();
  const lookups = new Map<string, Exchange>();
  for (const e of readLookups(out)) {
    recorded.set(exchangeKey(e), e);
    lookups.set(exchangeKey(e), e);
  }
  for (const h of done) for (const e of readHeight(out, h).exchanges) recorded.set(exchangeKey(e), e);
  const pending = new Map<number, Map<string, Exchange>>();
  let exchanges = 0;
  let written = from - 1;
  const keep = (height: number | undefined, e: Exchange) => {
    exchanges += 1;
    // Questions about heights already written (a contract's code the block before) are look-ups too.
    if (height === undefined || height <= written || height > to) lookups.set(exchangeKey(e), e);
    else pending.set(height, (pending.get(height) ?? new Map()).set(exchangeKey(e), e));
  };
  let failed: unknown;
  const onPruned = (height: number | undefined, text: string) => {
    const named = height ?? Number(/height #?(\d+)/.exec(text)?.[1] ?? Number.NaN);
    failed ??= new RecordingError(
      `height ${Number.isNaN(named) ? '?' : named} is pruned on the node while recording: ${text}`,
      { hint: 'record from a height the node still holds, or ask an archive node' },
    );
  };
  const coverage = createRichListCoverage();
  const proxies: RecordingProxy[] = [];
  const proxy = async (surface: Surface, targets: string[]) => {
    const p = await startProxy({
      surface,
      targets,
      to,
      timeoutMs: config.queryTimeoutMs,
      recorded,
      keep,
      onPruned,
      ...(surface === 'json_rpc' ? { onCall: coverage.seen } : {}),
    });
    proxies.push(p);
    return p.url;
  };
  const db = await openDb({ dataDir: 'memory://' });
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  try {
    const indexerConfig: IndexerConfig = {
      ...config,
      rpcUrls: [await proxy('rpc', config.rpcUrls)],
      restUrls: [await proxy('rest', config.restUrls)],
      jsonRpcUrls: config.vm === 'evm' ? [await proxy('json_rpc', config.jsonRpcUrls)] : [],
      startHeight: from,
      dataDir: 'memory://',
      metrics: { ...config.metrics, enabled: false },
    };
    const indexer = createIndexer(indexerConfig, { logger, db, metaCache: false });
    options.signal?.addEventListener('abort', () => stop.abort());
    running = indexer.run(stop.signal).catch((err: unknown) => {
      failed ??= err;
    });
    /** Writes the heights every stage has passed, up to `last`. */
    const flush = (last: number) => {
      const s = indexer.status();
      const passed = Math.min(
        s.written,
        indexerConfig.internalTx ? (s.internalTxHeight ?? 0) : Infinity,
        indexerConfig.richList ? (s.richListHeight ?? 0) : Infinity,
        last,
      );
      for (let h = written + 1; h <= passed; h++) {
        const fresh = [...(pending.get(h)?.values() ?? [])];
        pending.delete(h);
        if (done.has(h)) {
          // Recorded before; a question the earlier run did not ask is added to it.
          if (fresh.length > 0)
            writeHeight(out, { height: h, exchanges: [...readHeight(out, h).exchanges, ...fresh] });
        } else {
          writeHeight(out, { height: h, exchanges: fresh });
          manifest.heights.push(h);
        }
      }
      if (passed > written) {
        written = passed;
        writeLookups(out, [...lookups.values()]);
        writeManifest(out, { ...manifest, updated_at: new Date().toISOString() });
        logger.info({ height: written, to }, 'recorded');
      }
      return passed;
    };
    const pause = () => new Promise((r) => setTimeout(r, 100));
    // The last height is written after the rich list's coverage, so a recording that has it is whole.
    while (!stop.signal.aborted && flush(to - 1) < to - 1) {
      if (failed) throw failed;
      await pause();
    }
    while (!stop.signal.aborted && !passedAll(indexer.status(), indexerConfig, to)) {
      if (failed) throw failed;
      await pause();
    }
    if (indexerConfig.richList && !stop.signal.aborted) {
      const accounts = await createBlockWriter(db, config).accountsAll();
      const asked = await coverage.cover({
        jsonRpc: indexerConfig.jsonRpcUrls[0]!,
        from,
        to,
        accounts,
        timeoutMs: config.queryTimeoutMs,
      });
      logger.debug({ asked }, 'rich-list repairs covered');
    }
    if (failed) throw failed;
    if (!stop.signal.aborted) flush(to);
    return { heights: manifest.heights.length, exchanges, ...(start > from ? { resumedAt: start } : {}) };
  } finally {
    stop.abort();
    await running;
    await db.close();
    await Promise.all(proxies.map((p) => p.close()));
  }
}

function passedAll(s: IndexerStatus, config: IndexerConfig, height: number): boolean {
  return (
    s.written >= height &&
    (!config.internalTx || (s.internalTxHeight ?? 0) >= height) &&
    (!config.richList || (s.richListHeight ?? 0) >= height)
  );
}

/** A start height the node has pruned is an error naming it (CometBFT's `earliest_block_height`). */
async function checkAvailable(rpcs: string[], from: number, to: number, timeoutMs: number): Promise<void> {
  let status: Record<string, any> | undefined;
  let rpc = rpcs[0]!;
  let failure: unknown;
  for (const url of rpcs) {
    try {
      const answer = await fetch(`${url.replace(/\/+$/, '')}/status`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = (await answer.json()) as Record<string, any>;
      rpc = url;
      break;
    } catch (err) {
      failure = err;
    }
  }
  if (!status)
    throw new RecordingError(`no RPC URL answered /status: ${errorMessage(failure)}`, { cause: failure });
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
