import type { Logger } from '../common/logger.js';
import { catchingUp, formatProgress, liveLine } from '../common/progress.js';
import type { IndexerMetrics } from './metrics.js';

/**
 * How far indexing is and how fast it goes: structured log records every few seconds, and the same
 * figures as metrics. `tty` (stderr is a terminal): while the indexer catches up, a live line (height /
 * head, blocks/s, txs/s, ETA) instead of the records, cleared once it is at the head.
 */

export type ProgressMode = 'tty' | 'log' | 'off';

export interface ProgressFigures {
  height: number;
  head: number;
  blocksPerSecond: number;
  txsPerSecond: number;
  /** Seconds to the head at the current rate; 0 at the head, null while unknown. */
  etaSeconds: number | null;
}

export interface ProgressOptions {
  mode: ProgressMode;
  logger: Logger;
  metrics?: IndexerMetrics;
  /** Where the live line goes (stderr). */
  stream?: NodeJS.WritableStream;
  /** Extra figures for the line and the records (concurrency, extensions). */
  extra?: () => Record<string, number | string>;
  now?: () => number;
  windowMs?: number;
  intervalMs?: number;
}

export interface Progress {
  /** Heights just written, with their tx counts. */
  written(blocks: ReadonlyArray<{ height: number; txCount: number }>): void;
  head(height: number): void;
  /** The height already indexed when the indexer starts. */
  resume(height: number): void;
  figures(): ProgressFigures;
  start(): void;
  stop(): void;
}

interface Sample {
  at: number;
  blocks: number;
  txs: number;
}

export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const windowMs = options.windowMs ?? 10_000;
  const intervalMs = options.intervalMs ?? (options.mode === 'tty' ? 250 : 5000);
  const line = options.mode === 'tty' ? liveLine(options.stream ?? process.stderr) : undefined;
  // Off a terminal, `tty` keeps the records of `log`; on one, they come at most every few seconds.
  const logEveryMs = line ? 5000 : 0;
  let catching = false;
  const { metrics } = options;
  let height = 0;
  let head = 0;
  let blocks = 0;
  let txs = 0;
  let lastLogged = -1;
  let lastLoggedAt = Number.NEGATIVE_INFINITY;
  const samples: Sample[] = [{ at: now(), blocks: 0, txs: 0 }];
  let timer: NodeJS.Timeout | undefined;

  const sample = () => {
    const at = now();
    samples.push({ at, blocks, txs });
    // Keep the newest sample that is at least a window old as the base of the rates.
    while (samples.length > 2 && at - samples[1]!.at >= windowMs) samples.shift();
  };

  const figures = (): ProgressFigures => {
    const first = samples[0]!;
    const last = { at: now(), blocks, txs };
    const seconds = Math.max(0.001, (last.at - first.at) / 1000);
    const blocksPerSecond = (last.blocks - first.blocks) / seconds;
    const txsPerSecond = (last.txs - first.txs) / seconds;
    const behind = Math.max(0, head - height);
    const etaSeconds = behind === 0 ? 0 : blocksPerSecond > 0 ? behind / blocksPerSecond : null;
    return { height, head, blocksPerSecond, txsPerSecond, etaSeconds };
  };

  const report = () => {
    sample();
    const f = figures();
    metrics?.blocksPerSecond.set(f.blocksPerSecond);
    metrics?.txsPerSecond.set(f.txsPerSecond);
    metrics?.etaSeconds.set(f.etaSeconds ?? -1);
    const extra = options.extra?.() ?? {};
    if (line) {
      catching = catchingUp(catching, f.head - f.height);
      if (catching) {
        line.draw(progressLine(f, extra));
        return;
      }
      line.clear();
    }
    if (options.mode !== 'off') {
      // Quiet at the head: a record when the height moved, else once a minute.
      const at = now();
      if (at - lastLoggedAt < logEveryMs) return;
      if (f.height === lastLogged && at - lastLoggedAt < 60_000) return;
      lastLogged = f.height;
      lastLoggedAt = at;
      options.logger.info(
        {
          height: f.height,
          chainHeight: f.head,
          blocksPerSecond: round(f.blocksPerSecond),
          txsPerSecond: round(f.txsPerSecond),
          etaSeconds: f.etaSeconds === null ? null : Math.round(f.etaSeconds),
          ...extra,
        },
        f.etaSeconds === 0 ? 'following the head' : 'indexing',
      );
    }
  };

  return {
    written(batch) {
      for (const block of batch) {
        blocks += 1;
        txs += block.txCount;
        if (block.height > height) height = block.height;
      }
      if (height > head) head = height;
      metrics?.height.set(height);
      metrics?.blocks.inc(batch.length);
      metrics?.txs.inc(batch.reduce((sum, b) => sum + b.txCount, 0));
    },
    resume(at) {
      if (at > height) height = at;
      if (height > head) head = height;
    },
    head(latest) {
      if (latest > head) head = latest;
      metrics?.chainHeight.set(head);
    },
    figures,
    start() {
      if (options.mode === 'off' || timer) return;
      timer = setInterval(report, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      line?.clear();
    },
  };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** `height 1200/5000 (24.0%)  350 blocks/s  2100 txs/s  ETA 11s  concurrency 8`. */
export function progressLine(f: ProgressFigures, extra: Record<string, number | string> = {}): string {
  return formatProgress({
    unit: 'height',
    done: f.height,
    target: f.head,
    rates: { 'blocks/s': f.blocksPerSecond, 'txs/s': f.txsPerSecond },
    etaSeconds: f.etaSeconds,
    extra,
  });
}

/**
 * One live line on a terminal for several indexers (`weft dev`): their heights and rates summed, the ETA
 * of the last to arrive; drawn while one of them catches up. Returns what stops it (and clears the line).
 */
export function showCatchUp(
  sources: ReadonlyArray<() => ProgressFigures>,
  options: { stream?: NodeJS.WritableStream & { isTTY?: boolean }; intervalMs?: number } = {},
): () => void {
  const line = liveLine(options.stream ?? process.stderr);
  if (!line || sources.length === 0) return () => undefined;
  let catching = false;
  const timer = setInterval(() => {
    const all = sources.map((figures) => figures());
    const behind = Math.max(...all.map((f) => f.head - f.height));
    catching = catchingUp(catching, behind);
    if (!catching) return line.clear();
    const sum = (pick: (f: ProgressFigures) => number) => all.reduce((a, f) => a + pick(f), 0);
    const etas = all.map((f) => f.etaSeconds);
    line.draw(
      formatProgress({
        label: `indexing ${all.length} chain${all.length === 1 ? '' : 's'}`,
        unit: 'heights',
        done: sum((f) => f.height),
        target: sum((f) => f.head),
        rates: { 'blocks/s': sum((f) => f.blocksPerSecond), 'txs/s': sum((f) => f.txsPerSecond) },
        etaSeconds: etas.includes(null) ? null : Math.max(...(etas as number[])),
      }),
    );
  }, options.intervalMs ?? 250);
  timer.unref();
  return () => {
    clearInterval(timer);
    line.clear();
  };
}
