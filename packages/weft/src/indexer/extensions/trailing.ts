import { errorMessage } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import type { Concurrency } from '../concurrency.js';
import { createNodeWatch } from '../node-watch.js';
import { createPipeline, type Pipeline, type PrepareContext } from '../pipeline.js';
import type { IndexedHeights } from './indexed-heights.js';

/** What every extension gets: it trails the block indexer and writes with a progress height of its own. */
export interface TrailingOptions<N> {
  /** Heights the block indexer has written, with the notes this extension takes from them. */
  indexed: IndexedHeights<N>;
  /** Lowest height the node serves (for pruned heights). */
  lowestHeight(signal: AbortSignal): Promise<number>;
  maxConcurrency: number;
  pollIntervalMs: number;
  batchSize: number;
  logger: Logger;
  signal: AbortSignal;
  onWritten?(height: number): void;
  isRetryableWrite(err: unknown): boolean;
}

/**
 * The pipeline of an extension: heights after `from` up to what the block indexer has written, prepared
 * concurrently, written in order.
 */
export function createTrailingPipeline<T extends { height: number }>(
  options: TrailingOptions<unknown>,
  stage: {
    /** The extension's progress height. */
    from: number;
    /** What the extension writes (for its log lines). */
    what: string;
    concurrency: Concurrency;
    prepare(height: number, context: PrepareContext): Promise<T>;
    write(batch: T[]): Promise<void>;
  },
): Pipeline {
  const { indexed, logger } = options;
  return createPipeline<T>({
    from: stage.from + 1,
    prepare: stage.prepare,
    // The extension's "head" is the block indexer's progress; it is never behind in a way worth telling.
    chainHead: async () => indexed.height(),
    reportBehind: false,
    lowestHeight: options.lowestHeight,
    write: async (batch) => {
      await stage.write(batch);
      for (const { height } of batch) indexed.forget(height);
    },
    concurrency: stage.concurrency,
    watch: createNodeWatch({ logger }),
    pollIntervalMs: options.pollIntervalMs,
    batchSize: options.batchSize,
    bufferSize: Math.max(options.batchSize * 2, options.maxConcurrency * 2),
    signal: options.signal,
    isRetryableWrite: options.isRetryableWrite,
    onWriteRetry: (err) => logger.warn({ err: errorMessage(err) }, `writing ${stage.what} failed; retrying`),
    onWritten: (batch) => options.onWritten?.(batch[batch.length - 1]!.height),
  });
}
