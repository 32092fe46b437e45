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
