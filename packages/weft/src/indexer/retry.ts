import { setTimeout as sleep } from 'node:timers/promises';
import { FutureHeightError, isNodeTrouble } from '../chain/endpoints.js';

export interface RetryOptions {
  signal: AbortSignal;
  /** Delay before retry number `attempt`. */
  backoffMs(attempt: number): number;
  onRetry?(err: unknown, attempt: number): void;
}

/**
 * Runs `fn` until it succeeds, retrying node trouble with backoff and "not yet" answers as they come;
 * any other error (and the abort) ends it.
 */
export async function withRetry<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn(options.signal);
    } catch (err) {
      if (options.signal.aborted || !(isNodeTrouble(err) || err instanceof FutureHeightError)) throw err;
      options.onRetry?.(err, attempt);
      await sleep(options.backoffMs(attempt), undefined, { signal: options.signal }).catch(() => undefined);
    }
  }
}

export interface BackoffOptions {
  /** Delay before the first retry. */
  baseMs: number;
  /** The delay doubles up to this. */
  maxMs: number;
}

/** Exponential backoff without jitter: `baseMs`, twice that, … up to `maxMs` (attempts count from 1). */
export function exponentialBackoff({ baseMs, maxMs }: BackoffOptions): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
