import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createRng } from 'weft-devnet/random.js';
import { NodeQueryError, NodeUnavailableError, PrunedHeightError } from '../chain/endpoints.js';
import { silentLogger } from '../common/logger.js';
import { createConcurrency } from './concurrency.js';
import { createNodeWatch } from './node-watch.js';
import { createPipeline, type PipelineOptions, type PrepareContext } from './pipeline.js';
import { captureRecords } from './test-support/logger.js';

/**
 * The pipeline with plain functions for the node and the store: heights that finish in any order are
 * written in order, node trouble is retried and slows it down, the head is followed, a shutdown finishes
 * the batch being written, and errors stop it.
 */

type Item = { height: number };

function harness(overrides: Partial<PipelineOptions<Item>> & { head?: () => number } = {}) {
  const controller = new AbortController();
  const batches: number[][] = [];
  const head = overrides.head ?? (() => 60);
  const rng = createRng('pipeline');
  const concurrency = createConcurrency({ max: 16, initial: 16, backoffBaseMs: 5, backoffMaxMs: 20 });
  const pipeline = createPipeline<Item>({
    from: 1,
    prepare: async (height, { call }: PrepareContext) => {
      await call(() => sleep(1 + Math.floor(rng.next() * 15)));
      return { height };
    },
    chainHead: async () => head(),
    lowestHeight: async () => 1,
    write: async (batch) => {
      batches.push(batch.map((b) => b.height));
    },
    concurrency,
    watch: createNodeWatch({ logger: silentLogger() }),
    pollIntervalMs: 20,
    batchSize: 8,
    bufferSize: 32,
    signal: controller.signal,
    ...overrides,
  });
  const done = pipeline.run();
  return { pipeline, controller, batches, done, concurrency, written: () => batches.flat() };
}

const until = async (condition: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(5);
  }
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('pipeline', () => {
  it('writes heights strictly in order, in batches no larger than asked', async () => {
    const h = harness();
    await until(() => h.pipeline.status().written === 60);
    h.controller.abort();
    await h.done;
    expect(h.written()).toEqual(range(1, 60));
    expect(Math.max(...h.batches.map((b) => b.length))).toBeLessThanOrEqual(8);
    expect(h.batches.length).toBeLessThan(60);
  });

  it('retries node trouble, halving the concurrency, and loses nothing', async () => {
    const rng = createRng('trouble');
    const h = harness({
      prepare: async (height, { call }) => {
        await call(async () => {
          await sleep(2);
          if (rng.next() < 0.3) throw new NodeUnavailableError('HTTP 503', 'unavailable');
        });
        return { height };
      },
    });
    await until(() => h.pipeline.status().written === 60);
    h.controller.abort();
    await h.done;
    expect(h.written()).toEqual(range(1, 60));
    expect(h.concurrency.limit).toBeLessThan(16);
  });

  it('follows the head as it moves, writing a height only once the head has reached it', async () => {
    let head = 5;
    const beyondHead: number[] = [];
    const batches: number[][] = [];
    const h = harness({
      head: () => head,
      write: async (batch) => {
        for (const { height } of batch) if (height > head) beyondHead.push(height);
        batches.push(batch.map((b) => b.height));
      },
    });
    const written = () => batches.flat();
    await until(() => written().length === 5);
    for (const next of [6, 9, 10]) {
      // Several poll intervals at this head: the pipeline waits there.
      await sleep(60);
      expect(written()).toEqual(range(1, head));
      head = next;
      await until(() => written().length === next);
    }
    h.controller.abort();
    await h.done;
    expect(written()).toEqual(range(1, 10));
    expect(beyondHead).toEqual([]);
  });

  it('finishes the batch being written when stopped, then writes nothing more', async () => {
    let writing = false;
    let stopped = false;
    const batches: number[][] = [];
    const h = harness({
      write: async (batch) => {
        if (stopped) throw new Error('a batch started after the stop');
        writing = true;
        await sleep(50);
        batches.push(batch.map((b) => b.height));
        writing = false;
      },
    });
    await until(() => writing);
    h.controller.abort();
    stopped = true;
    await h.done;
    expect(writing).toBe(false);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.flat()).toEqual(range(1, batches.flat().length));
  });

  it('stops with the error when a height cannot be decoded, after writing the heights before it', async () => {
    const h = harness({
      prepare: async (height, { call }) => {
        await call(() => sleep(2));
        if (height === 23) throw new NodeQueryError('bad block', 400);
        return { height };
      },
    });
    await expect(h.done).rejects.toThrow('bad block');
    expect(h.written()).toEqual(range(1, h.written().length));
    expect(h.written().length).toBeLessThanOrEqual(22);
  });

  it('waits at a pruned height, says so once, and goes on when the node serves it again', async () => {
    let lowest = 10;
    const { logger, records } = captureRecords();
    const h = harness({
      prepare: async (height) => {
        if (height < lowest) throw new PrunedHeightError(`height ${height} is not available`, lowest);
        return { height };
      },
      lowestHeight: async () => lowest,
      prunedRecheckMs: 30,
      watch: createNodeWatch({ logger }),
    });
    await sleep(150);
    expect(h.written()).toEqual([]);
    expect(records.filter((r) => r.level >= 50)).toHaveLength(1);
    lowest = 1;
    await until(() => h.pipeline.status().written === 60);
    h.controller.abort();
    await h.done;
    expect(records.some((r) => r.msg.includes('resuming'))).toBe(true);
  });
});
