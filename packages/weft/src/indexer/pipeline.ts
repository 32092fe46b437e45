import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { FutureHeightError, isNodeTrouble, PrunedHeightError } from '../chain/endpoints.js';
import type { Concurrency, Slot } from './concurrency.js';
import type { NodeWatch } from './node-watch.js';
import { createSignal } from './signal.js';

/**
 * Backfill and head-following in one loop. Heights are prepared (fetched, decoded) concurrently under the
 * adaptive limit and kept in a bounded reorder buffer; one writer takes them strictly in height order, in
 * batches of whatever is ready (up to `batchSize`), so batches grow by themselves while a write is under
 * way. Once at the head, the head is polled every `pollIntervalMs` and new heights start at once.
 */

const HEAD_REFRESH_MS = 2000;

/** What a height's preparation gets: the abort signal, and a way to make node calls that retries trouble. */
export interface PrepareContext {
  signal: AbortSignal;
  /**
   * Runs one node call until it succeeds: node trouble is retried (with backoff, slowing the pipeline
   * down); anything else, "not yet" included, is thrown to the height, which starts again.
   */
  call<R>(fn: (signal: AbortSignal) => Promise<R>): Promise<R>;
}

export interface PipelineOptions<T extends { height: number }> {
  /** First height to index. */
  from: number;
  prepare(height: number, context: PrepareContext): Promise<T>;
  /** The node's head; throws node trouble when the node does not answer. */
  chainHead(signal: AbortSignal): Promise<number>;
  /** The lowest height the node serves (to notice when a pruned height is back). */
  lowestHeight(signal: AbortSignal): Promise<number>;
  write(batch: T[], signal: AbortSignal): Promise<void>;
  concurrency: Concurrency;
  watch: NodeWatch;
  pollIntervalMs: number;
  batchSize: number;
  /** Most heights prepared or in preparation at once (the reorder buffer's bound). */
  bufferSize: number;
  /** Say so when the head is behind what is written (the node fell back); extensions that trail the indexer do not. */
  reportBehind?: boolean;
  /** How often a pruned height is checked again. */
  prunedRecheckMs?: number;
  /** Aborting finishes the batch being written, then `run` returns. */
  signal: AbortSignal;
  onWritten?(batch: T[]): void;
  onHead?(head: number): void;
  onRetry?(height: number, err: unknown): void;
  /** A write failed in a way a retry may fix (the database went away); it is retried. */
  onWriteRetry?(err: unknown, attempt: number): void;
  isRetryableWrite?(err: unknown): boolean;
}

export interface PipelineStatus {
  head: number;
  /** Highest written height. */
  written: number;
  inFlight: number;
  buffered: number;
}

export interface Pipeline {
  /** Resolves after a graceful stop; rejects with the error that stopped indexing. */
  run(): Promise<void>;
  status(): PipelineStatus;
}

export function createPipeline<T extends { height: number }>(options: PipelineOptions<T>): Pipeline {
  const { concurrency, watch } = options;
  const halt = new AbortController();
  const signal = AbortSignal.any([options.signal, halt.signal]);
  // Every node request in flight listens on it.
  setMaxListeners(10_000, signal);
  const changed = createSignal(signal);
  const ready = new Map<number, T>();
  const tasks = new Set<Promise<void>>();
  const prunedRecheckMs = options.prunedRecheckMs ?? 60_000;
  let next = options.from;
  let nextWrite = options.from;
  let head = 0;
  let fatal: { error: unknown } | undefined;

  const stop = (error: unknown) => {
    fatal ??= { error };
    halt.abort(error);
  };

  const pause = (ms: number) => sleep(ms, undefined, { signal }).catch(() => undefined);

  const prunedWaiting = new Set<number>();

  /** Waits until the node serves `height` again after it said it was pruned. */
  const awaitUnpruned = async (height: number, err: PrunedHeightError) => {
    prunedWaiting.add(height);
    // Every height below the node's lowest is gone, so the first unwritten one is too: name that one.
    watch.pruned(Math.min(height, nextWrite), err.lowest);
    while (!signal.aborted) {
      await pause(prunedRecheckMs);
      try {
        if ((await options.lowestHeight(signal)) <= height) break;
      } catch {
        // The check itself failed; try again at the next recheck.
      }
    }
    prunedWaiting.delete(height);
    if (prunedWaiting.size === 0) watch.servedAgain();
  };

  const contextOf = (height: number, slot: Slot): PrepareContext => ({
    signal,
    async call(fn) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          const value = await fn(signal);
          concurrency.succeeded(slot);
          watch.succeeded();
          return value;
        } catch (err) {
          if (signal.aborted || !isNodeTrouble(err)) throw err;
          options.onRetry?.(height, err);
          concurrency.overloaded(slot);
          watch.troubled(err);
          await concurrency.backoff(attempt, signal);
        }
      }
    },
  });

  const task = async (height: number, slot: Slot) => {
    const context = contextOf(height, slot);
    let attempt = 0;
    while (!signal.aborted) {
      try {
        const value = await options.prepare(height, context);
        ready.set(height, value);
        changed.notify();
        return;
      } catch (err) {
        if (signal.aborted) return;
        options.onRetry?.(height, err);
        if (err instanceof FutureHeightError) {
          // One surface is a little behind another (REST after RPC): ask again soon, no penalty.
          await pause(options.pollIntervalMs);
        } else if (isNodeTrouble(err)) {
          // Trouble that escaped the calls' own retries (a short answer): start the height again.
          attempt += 1;
          concurrency.overloaded(slot);
          watch.troubled(err);
          await concurrency.backoff(attempt, signal);
        } else if (err instanceof PrunedHeightError) {
          await awaitUnpruned(height, err);
        } else {
          stop(err);
          return;
        }
      }
    }
  };

  /** Waits until the head reaches `height`; tells once when the node is down or behind the database. */
  const awaitHead = async (height: number) => {
    let attempt = 0;
    while (!signal.aborted) {
      try {
        const latest = await options.chainHead(signal);
        watch.succeeded();
        attempt = 0;
        if (latest > head) {
          head = latest;
          options.onHead?.(head);
        }
        if (latest >= height) {
          watch.caughtUp();
          return;
        }
        if (latest < nextWrite - 1 && options.reportBehind !== false) watch.behind(latest, nextWrite - 1);
        await pause(options.pollIntervalMs);
      } catch (err) {
        if (signal.aborted) return;
        attempt += 1;
        watch.troubled(err);
        await pause(Math.max(options.pollIntervalMs, concurrency.backoffMs(Math.min(attempt, 4))));
      }
    }
  };

  const schedule = async () => {
    while (!signal.aborted) {
      if (next > head) {
        await awaitHead(next);
        continue;
      }
      if (ready.size + concurrency.inFlight >= options.bufferSize) {
        await changed.wait();
        continue;
      }
      let slot: Slot;
      try {
        slot = await concurrency.acquire(signal);
      } catch {
        return;
      }
      const height = next;
      next += 1;
      const running: Promise<void> = task(height, slot).finally(() => {
        concurrency.release(slot);
        tasks.delete(running);
        changed.notify();
      });
      tasks.add(running);
    }
  };

  const writeBatch = async (batch: T[]) => {
    let attempt = 0;
    for (;;) {
      try {
        // The write itself is not cut short by a shutdown: it finishes, then the loop stops.
        await options.write(batch, halt.signal);
        return;
      } catch (err) {
        if (!options.isRetryableWrite?.(err) || options.signal.aborted) throw err;
        attempt += 1;
        options.onWriteRetry?.(err, attempt);
        await sleep(concurrency.backoffMs(Math.min(attempt, 8)), undefined, { signal: options.signal }).catch(
          () => undefined,
        );
      }
    }
  };

  const writeLoop = async () => {
    for (;;) {
      if (options.signal.aborted) return;
      if (!ready.has(nextWrite)) {
        // After a fatal error, what is ready before the gap is still written.
        if (signal.aborted) return;
        await changed.wait();
        continue;
      }
      const batch: T[] = [];
      while (batch.length < options.batchSize && ready.has(nextWrite + batch.length)) {
        batch.push(ready.get(nextWrite + batch.length)!);
      }
      try {
        await writeBatch(batch);
      } catch (err) {
        stop(err);
        return;
      }
      for (const item of batch) ready.delete(item.height);
      nextWrite += batch.length;
      changed.notify();
      options.onWritten?.(batch);
    }
  };

  /** Keeps the head fresh during a backfill, for the progress figures (at the head, `awaitHead` polls). */
  const refreshHead = async () => {
    while (!signal.aborted) {
      await pause(HEAD_REFRESH_MS);
      if (next > head || signal.aborted) continue;
      try {
        const latest = await options.chainHead(signal);
        if (latest > head) {
          head = latest;
          options.onHead?.(head);
        }
      } catch {
        // The fetches notice node trouble themselves.
      }
    }
  };

  return {
    async run() {
      const writing = writeLoop();
      const refreshing = refreshHead();
      await schedule();
      await Promise.allSettled([...tasks]);
      changed.notify();
      await writing;
      halt.abort();
      await refreshing;
      if (fatal) throw fatal.error;
    },
    status: () => ({ head, written: nextWrite - 1, inFlight: concurrency.inFlight, buffered: ready.size }),
  };
}
