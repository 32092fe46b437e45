import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '../common/metrics.js';
import { createIndexerMetrics } from './metrics.js';
import { createProgress, progressLine } from './progress.js';
import { captureRecords } from './test-support/logger.js';

describe('progress', () => {
  it('computes rates over the window and the ETA to the head', () => {
    let clock = 0;
    const { logger } = captureRecords();
    const progress = createProgress({ mode: 'off', logger, now: () => clock, windowMs: 10_000 });
    progress.head(1000);
    for (let h = 1; h <= 100; h += 1) {
      clock += 10;
      progress.written([{ height: h, txCount: 20 }]);
    }
    const f = progress.figures();
    expect(f.height).toBe(100);
    expect(f.blocksPerSecond).toBeCloseTo(100, 5);
    expect(f.txsPerSecond).toBeCloseTo(2000, 5);
    expect(f.etaSeconds).toBeCloseTo(9, 5);
  });

  it('draws one live line on a terminal while catching up, and clears it at the head', async () => {
    const written: string[] = [];
    const stream = { isTTY: true, write: (s: string) => written.push(s) } as unknown as NodeJS.WritableStream;
    const { logger, records } = captureRecords();
    const progress = createProgress({
      mode: 'tty',
      logger,
      stream,
      intervalMs: 5,
      extra: () => ({ concurrency: 8 }),
    });
    progress.head(100);
    progress.start();
    progress.written([{ height: 5, txCount: 3 }]);
    await new Promise((r) => setTimeout(r, 30));
    expect(written.length).toBeGreaterThan(1);
    // Each redraw returns the cursor and clears the line (ESC [K) first; no newline: it stays in place.
    expect(written[0]!.startsWith('\r\u001b[K')).toBe(true);
    expect(written[0]!.slice(4)).toMatch(
      /^height 5\/100 \(5\.0%\) +\d+ blocks\/s +\d+ txs\/s +ETA .* +concurrency 8$/,
    );
    expect(written.join('')).not.toContain('\n');
    expect(records.filter((r) => r.msg === 'indexing')).toHaveLength(0);

    // At the head: the line is erased and a record says so.
    progress.written([{ height: 100, txCount: 1 }]);
    await new Promise((r) => setTimeout(r, 30));
    expect(written.at(-1)).toBe('\r\u001b[K');
    expect(records.some((r) => r.msg === 'following the head')).toBe(true);
    progress.stop();
  });

  it('keeps the log records in tty mode when the stream is not a terminal', async () => {
    const written: string[] = [];
    const stream = {
      isTTY: false,
      write: (s: string) => written.push(s),
    } as unknown as NodeJS.WritableStream;
    const { logger, records } = captureRecords();
    const progress = createProgress({ mode: 'tty', logger, stream, intervalMs: 5 });
    progress.head(100);
    progress.start();
    progress.written([{ height: 5, txCount: 3 }]);
    await new Promise((r) => setTimeout(r, 30));
    progress.stop();
    expect(written).toEqual([]);
    expect(records.some((r) => r.msg === 'indexing')).toBe(true);
  });

  it('logs records off a terminal and keeps the metrics', async () => {
    const { logger, records } = captureRecords();
    const registry = createMetricsRegistry();
    const metrics = createIndexerMetrics(registry);
    const progress = createProgress({ mode: 'log', logger, metrics, intervalMs: 5 });
    progress.head(4);
    progress.start();
    progress.written([
      { height: 3, txCount: 2 },
      { height: 4, txCount: 1 },
    ]);
    await new Promise((r) => setTimeout(r, 30));
    progress.stop();
    expect(records.some((r) => r.msg === 'following the head')).toBe(true);
    const text = await registry.metrics();
    expect(text).toMatch(/^weft_indexer_height 4$/m);
    expect(text).toMatch(/^weft_indexer_txs_total 3$/m);
    expect(text).toMatch(/^weft_indexer_chain_height 4$/m);
  });

  it('writes the ETA in minutes and hours', () => {
    const line = (eta: number | null) =>
      progressLine({ height: 1, head: 2, blocksPerSecond: 1, txsPerSecond: 1, etaSeconds: eta });
    expect(line(3725)).toContain('ETA 1h02m');
    expect(line(125)).toContain('ETA 2m05s');
    expect(line(0)).toContain('at head');
    expect(line(null)).toContain('ETA …');
  });
});
