import { describe, expect, it } from 'vitest';
import {
  aboveLiveLine,
  catchingUp,
  clearLiveLine,
  formatDuration,
  formatProgress,
  liveLine,
} from './progress.js';

/** A stream that records what is written, a terminal of `columns` columns or not a terminal. */
function stream(isTTY: boolean, columns = 100) {
  const written: string[] = [];
  const s = { isTTY, columns, write: (t: string) => written.push(t) > 0 };
  return { stream: s as unknown as NodeJS.WritableStream & { isTTY: boolean; columns: number }, written };
}

describe('progress line', () => {
  it('formats the count, the percentage, the rates, the ETA and the extra figures', () => {
    expect(
      formatProgress({
        label: 'indexing 4 chains',
        unit: 'heights',
        done: 1200,
        target: 5000,
        rates: { 'blocks/s': 349.6, 'txs/s': 2100.2 },
        etaSeconds: 10.9,
        extra: { concurrency: 8 },
      }),
    ).toBe('indexing 4 chains  heights 1200/5000 (24.0%)  350 blocks/s  2100 txs/s  ETA 11s  concurrency 8');
    const base = { unit: 'block', done: 3, target: 3, rates: {} };
    expect(formatProgress({ ...base, etaSeconds: 0 })).toBe('block 3/3 (100.0%)  at head');
    expect(formatProgress({ ...base, etaSeconds: 0, doneText: 'done' })).toBe('block 3/3 (100.0%)  done');
    expect(formatProgress({ ...base, target: 0, etaSeconds: null })).toBe('block 3/0  ETA …');
  });

  it('writes durations in seconds, minutes and hours', () => {
    expect(formatDuration(0.2)).toBe('1s');
    expect(formatDuration(59)).toBe('59s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(3725)).toBe('1h02m');
  });

  it('turns catching up on past `enter` heights behind and off at `leave`', () => {
    expect(catchingUp(false, 5)).toBe(false);
    expect(catchingUp(false, 11)).toBe(true);
    expect(catchingUp(true, 5)).toBe(true);
    expect(catchingUp(true, 1)).toBe(false);
  });

  it('redraws in place, cuts what the terminal cannot hold and erases the line when done', () => {
    const { stream: tty, written } = stream(true, 20);
    const line = liveLine(tty)!;
    line.draw('height 1/2');
    line.draw('height 2/2 and a lot more text');
    expect(written).toEqual(['\r\x1b[Kheight 1/2', '\r\x1b[Kheight 2/2 and a l…']);
    // A log line goes above the live line, which is drawn again below it.
    aboveLiveLine(tty, 'warn something\n');
    expect(written.at(-1)).toBe('\r\x1b[Kwarn something\nheight 2/2 and a l…');
    line.clear();
    expect(written.at(-1)).toBe('\r\x1b[K');
    aboveLiveLine(tty, 'info after\n');
    expect(written.at(-1)).toBe('info after\n');
    clearLiveLine();
    expect(written.at(-1)).toBe('info after\n');
  });

  it('draws nothing when the stream is not a terminal', () => {
    expect(liveLine(stream(false).stream)).toBeUndefined();
  });
});
