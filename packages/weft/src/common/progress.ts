/**
 * Progress of long work on a terminal: one line redrawn in place (`\r`, then erase the line), cleared
 * when the work is done. Only on a terminal: off one, callers keep their log records. Log lines written
 * meanwhile (`aboveLiveLine`) clear the line first and draw it again below themselves.
 */

export interface ProgressView {
  /** What is going on (`fast-forward`, `indexing 4 chains`); absent: nothing before the figures. */
  label?: string;
  /** What `done` and `target` count (`height`, `blocks`). */
  unit: string;
  done: number;
  target: number;
  /** Rates shown after the count, e.g. `{ 'blocks/s': 350, 'txs/s': 2100 }`. */
  rates: Record<string, number>;
  /** Seconds left; 0: done (at the head); null: not known yet. */
  etaSeconds: number | null;
  /** Shown for an ETA of 0 (default `at head`). */
  doneText?: string;
  /** Figures shown last (`concurrency 8`). */
  extra?: Record<string, number | string>;
}

/** `indexing 4 chains  height 1200/5000 (24.0%)  350 blocks/s  ETA 11s`. */
export function formatProgress(view: ProgressView): string {
  const percent =
    view.target > 0 ? ` (${((100 * Math.min(view.done, view.target)) / view.target).toFixed(1)}%)` : '';
  const parts = [
    ...(view.label ? [view.label] : []),
    `${view.unit} ${view.done}/${view.target}${percent}`,
    ...Object.entries(view.rates).map(([unit, rate]) => `${rate.toFixed(0)} ${unit}`),
    view.etaSeconds === 0
      ? (view.doneText ?? 'at head')
      : view.etaSeconds === null
        ? 'ETA …'
        : `ETA ${formatDuration(view.etaSeconds)}`,
    ...Object.entries(view.extra ?? {}).map(([k, v]) => `${k} ${v}`),
  ];
  return parts.join('  ');
}

/** `42s`, `3m05s`, `2h07m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Whether a follower is still catching up, with some slack so the line does not flicker while it follows
 * a head that moves: on once more than `enter` heights behind, off again at most `leave` behind.
 */
export function catchingUp(wasCatchingUp: boolean, behind: number, enter = 10, leave = 1): boolean {
  return wasCatchingUp ? behind > leave : behind > enter;
}

type Tty = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

export interface LiveLine {
  /** Draws `text` in place of the line drawn before (cut to the terminal's width). */
  draw(text: string): void;
  /** Erases the line; the next `draw` starts it again. */
  clear(): void;
}

const ERASE = '\r\x1b[K';
/** The line on screen, if any: log lines written meanwhile go above it. */
let shown: { stream: Tty; text: string } | undefined;

/** A live line on `stream`, or undefined when `stream` is not a terminal. */
export function liveLine(stream: Tty = process.stderr): LiveLine | undefined {
  if (!stream.isTTY) return undefined;
  return {
    draw(text) {
      // A line wider than the terminal wraps, and `\r` would then redraw only its last part.
      const cut =
        stream.columns && text.length >= stream.columns ? `${text.slice(0, stream.columns - 2)}…` : text;
      stream.write(`${ERASE}${cut}`);
      shown = { stream, text: cut };
    },
    clear() {
      if (shown?.stream !== stream) return;
      stream.write(ERASE);
      shown = undefined;
    },
  };
}

/** Erases the live line, if one is shown (before a last error line). */
export function clearLiveLine(): void {
  shown?.stream.write(ERASE);
  shown = undefined;
}

/** Writes `text` (whole lines) to `stream` above the live line, which is drawn again below it. */
export function aboveLiveLine(stream: NodeJS.WritableStream, text: string): void {
  if (!shown) {
    stream.write(text);
    return;
  }
  if (stream === shown.stream) {
    stream.write(`${ERASE}${text}${shown.text}`);
    return;
  }
  // Another stream on the same terminal (stdout): erase, write, draw again.
  shown.stream.write(ERASE);
  stream.write(text);
  shown.stream.write(shown.text);
}
