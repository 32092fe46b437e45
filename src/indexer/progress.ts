import type { Logger } from '../common/logger.js';
import type { IndexerMetrics } from './metrics.js';

/**
 * How far indexing is and how fast it goes: a live line on a terminal (height / head, blocks/s, txs/s,
 * ETA), structured log records every few seconds otherwise, and the same figures as metrics.
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
  const stream = options.stream ?? process.stderr;
  const { metrics } = options;
  let height = 0;
  let head = 0;
  let blocks = 0;
  let txs = 0;
  let lastLogged = -1;
  let lastLoggedAt = 0;
  const samples: Sample[] = [{ at: now(), blocks: 0, txs: 0 }];
  let timer: NodeJS.Timeout | undefined;
  let lineShown = false;

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
    if (options.mode === 'tty') {
      stream.write(`\r\x1b[K${progressLine(f, extra)}`);
      lineShown = true;
    } else if (options.mode === 'log') {
      // Quiet at the head: a record when the height moved, else once a minute.
      const at = now();
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
      if (lineShown) {
        stream.write(`\r\x1b[K${progressLine(figures(), options.extra?.() ?? {})}\n`);
        lineShown = false;
      }
    },
  };
}

const round = (n: number) => Math.round(n * 10) / 10;

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  if (seconds < 3600)
    return `${Math.floor(seconds / 60)}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}

export function progressLine(f: ProgressFigures, extra: Record<string, number | string> = {}): string {
  const percent = f.head > 0 ? ` (${((100 * f.height) / f.head).toFixed(1)}%)` : '';
  const eta =
    f.etaSeconds === 0 ? 'at head' : f.etaSeconds === null ? 'ETA …' : `ETA ${duration(f.etaSeconds)}`;
  const rest = Object.entries(extra)
    .map(([k, v]) => `${k} ${v}`)
    .join('  ');
  return `height ${f.height}/${f.head}${percent}  ${f.blocksPerSecond.toFixed(0)} blocks/s  ${f.txsPerSecond.toFixed(0)} txs/s  ${eta}${rest ? `  ${rest}` : ''}`;
}
