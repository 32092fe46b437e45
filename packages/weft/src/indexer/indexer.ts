import { setMaxListeners } from 'node:events';
import { errorMessage, isRetryable } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { createMetricsRegistry, type Registry } from '../common/metrics.js';
import { stageTimesOn } from '../common/stage-times.js';
import { type Db, openDb } from '../store/db.js';
import { migrate } from '../store/migrate.js';
import { openStoreThread } from '../store/store-thread.js';
import { type BlockWriter, type BlockWriterOptions, createBlockWriter } from '../store/writer.js';
import { createConcurrency } from './concurrency.js';
import type { IndexerConfig } from './config.js';
import { createDropReporter } from './decode-drops.js';
import { createExtensions, type Extensions, startExtensions } from './extensions/index.js';
import { createMetaAnswerer } from './meta.js';
import { createIndexerMetrics, errorKind, type IndexerMetrics } from './metrics.js';
import { checkNode, checkSurfaces, closeNodeClients, createNodeClients } from './node-check.js';
import { createNodeWatch } from './node-watch.js';
import { createPipeline, type PipelineStatus } from './pipeline.js';
import { createPrepare, type PreparedBlock } from './prepare.js';
import { createProgress, type ProgressFigures, type ProgressMode } from './progress.js';
import type { BackoffOptions } from './retry.js';
import { stageTimedDb } from './stage-db.js';
import { computeStartHeight } from './start-height.js';

export interface IndexerDeps {
  logger: Logger;
  /** Metrics go here (the CLI serves it); absent: a private registry nobody reads. */
  registry?: Registry;
  progress?: ProgressMode;
  /** An open database to use (and leave open); absent: opened from the config and closed at the end. */
  db?: Db;
  /** The pause of a failed extension before it starts again; absent: 1 s doubling up to 60 s. */
  extensionBackoff?: BackoffOptions;
  /** How the store is written (default `createBlockWriter`); `weft dev` writes in the store's thread. */
  createWriter?: (db: Db, options: BlockWriterOptions) => BlockWriter;
  /**
   * Keep answers of metadata questions naming no height across heights (default true). `weft record`
   * turns it off: every height then asks its own, so a replay finds them whichever height asks first.
   */
  metaCache?: boolean;
}

export interface IndexerStatus extends PipelineStatus {
  internalTxHeight: number | null;
  richListHeight: number | null;
  concurrency: number;
}

export interface Indexer {
  /** Indexes until `signal` aborts (then finishes the batch being written) or an error stops it. */
  run(signal: AbortSignal): Promise<void>;
  status(): IndexerStatus;
  /** How far it is and how fast it goes (the progress line's figures). */
  figures(): ProgressFigures;
}

export function createIndexer(config: IndexerConfig, deps: IndexerDeps): Indexer {
  const { logger } = deps;
  const clients = createNodeClients(config);
  const metrics: IndexerMetrics = createIndexerMetrics(deps.registry ?? createMetricsRegistry());
  const concurrency = createConcurrency({
    max: config.maxConcurrentRequests,
    initial: Math.min(config.maxConcurrentRequests, 8),
  });
  const watch = createNodeWatch({
    logger,
    onChange: (state) => metrics.nodeUp.set(state === 'down' ? 0 : 1),
  });
  metrics.nodeUp.set(1);
  const drops = createDropReporter({ logger, counter: metrics.decodeDrops });
  let pipelineStatus: () => PipelineStatus = () => ({ head: 0, written: 0, inFlight: 0, buffered: 0 });
  let extensionHeights: Extensions['heights'] = { internalTx: null, richList: null };
  const progress = createProgress({
    mode: deps.progress ?? 'off',
    logger,
    metrics,
    extra: () => ({
      concurrency: concurrency.limit,
      ...(extensionHeights.internalTx === null ? {} : { internalTx: extensionHeights.internalTx }),
      ...(extensionHeights.richList === null ? {} : { richList: extensionHeights.richList }),
    }),
  });

  const run = async (signal: AbortSignal) => {
    const status = await checkNode(clients.comet, config, logger, signal);
    await checkSurfaces(clients, signal);
    // PGlite runs in a thread of its own, with its writer: a write there overlaps the next heights'
    // fetch and decode here, as a write to PostgreSQL does.
    const thread =
      deps.db || config.dbDsn
        ? undefined
        : await openStoreThread(config.dataDir, { schema: config.dbSchema });
    const db = deps.db ?? thread?.db ?? (await openDb({ dsn: config.dbDsn, schema: config.dbSchema }));
    // Stage times (opt-in): the writer's statements are timed apart from its own code (in this thread only).
    const timedDb = stageTimesOn() && !thread ? stageTimedDb(db) : undefined;
    const store = (deps.createWriter ?? thread?.createWriter ?? createBlockWriter)(timedDb?.db ?? db, {
      chainId: config.chainId,
      vm: config.vm,
      bech32Prefix: config.bech32Prefix,
    });
    const stopExtensions = new AbortController();
    const extensionSignal = AbortSignal.any([signal, stopExtensions.signal]);
    // Node requests in flight each listen on these.
    setMaxListeners(10_000, signal, extensionSignal);
    try {
      await migrate(db);
      const stored = await store.progress();
      const from = computeStartHeight({
        indexed: stored.height,
        head: status.latestHeight,
        startHeight: config.startHeight,
      });
      logger.info(
        {
          chainId: config.chainId,
          vm: config.vm,
          from,
          indexedHeight: stored.height,
          nodeHeight: status.latestHeight,
        },
        stored.height > 0 ? 'resuming' : 'starting',
      );
      progress.head(status.latestHeight);
      progress.resume(stored.height);
      progress.written([]);
      metrics.height.set(stored.height);

      const extensions = await createExtensions({
        config,
        clients,
        store,
        stored,
        from,
        logger,
        metrics,
        signal: extensionSignal,
        drops,
        ...(deps.extensionBackoff ? { backoff: deps.extensionBackoff } : {}),
      });
      extensionHeights = extensions.heights;

      const prepare = createPrepare({
        clients,
        meta: createMetaAnswerer(clients.rest, deps.metaCache === false ? { cacheSize: 0 } : {}),
        decode: { vm: config.vm, bech32Prefix: config.bech32Prefix, chainId: config.chainId, drops },
        richList: extensions.needsBalanceDeltas,
        internalTxs: extensions.needsInternalTxs,
      });
      const pipeline = createPipeline<PreparedBlock>({
        from,
        prepare,
        chainHead: async (s) => (await clients.comet.status(s)).latestHeight,
        lowestHeight: async (s) => (await clients.comet.status(s)).earliestHeight,
        write: async (batch) => {
          const stop = metrics.writeSeconds.startTimer();
          const blocks = batch.map((b) => b.block);
          await (timedDb ? timedDb.batch(() => store.writeBlocks(blocks)) : store.writeBlocks(blocks));
          stop();
        },
        concurrency,
        watch,
        pollIntervalMs: config.pollIntervalMs,
        batchSize: config.batchSize,
        bufferSize: Math.max(config.batchSize * 2, config.maxConcurrentRequests * 2),
        signal,
        isRetryableWrite: isRetryable,
        onWriteRetry: (err, attempt) => {
          if (attempt === 1)
            logger.warn({ err: errorMessage(err) }, 'the database is not answering; retrying');
        },
        onWritten: (batch) => {
          progress.written(batch.map((b) => ({ height: b.height, txCount: b.block.txCount })));
          extensions.written(batch);
          metrics.concurrency.set(concurrency.limit);
          metrics.inFlight.set(concurrency.inFlight);
        },
        onHead: (head) => progress.head(head),
        onRetry: (_height, err) => metrics.fetchErrors.inc({ kind: errorKind(err) }),
      });
      pipelineStatus = pipeline.status;

      // Before the first block is written: the rich-list snapshot must come first in the write order.
      const running = await startExtensions(extensions);
      progress.start();
      try {
        await pipeline.run();
      } finally {
        stopExtensions.abort();
        await Promise.all(running);
      }
    } finally {
      progress.stop();
      if (!deps.db) await db.close();
    }
  };

  const runAndClose = async (signal: AbortSignal) => {
    try {
      await run(signal);
    } finally {
      await closeNodeClients(clients);
    }
  };

  return {
    run: runAndClose,
    figures: () => progress.figures(),
    status: () => ({
      ...pipelineStatus(),
      internalTxHeight: extensionHeights.internalTx,
      richListHeight: extensionHeights.richList,
      concurrency: concurrency.limit,
    }),
  };
}
