import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How many heights are fetched at once, adapted to what the node can take (AIMD, as TCP does): the limit
 * doubles per round of successes until the node first struggles, then grows by one per round; each time
 * the node struggles (429, 5xx, timeouts, dropped connections) it halves, once per round, so a burst of
 * failures from one round halves it only once. Retries wait an exponential backoff with jitter.
 */

export interface ConcurrencyOptions {
  /** Upper bound (MAX_CONCURRENT_REQUESTS). */
  max: number;
  min?: number;
  initial?: number;
  /** First retry delay and cap of the backoff, in ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  random?: () => number;
}

/** A held slot: its round tells whether a failure seen through it is news. */
export interface Slot {
  readonly round: number;
}

export interface Concurrency {
  readonly limit: number;
  readonly inFlight: number;
  /** Waits for a free slot (or the abort). */
  acquire(signal?: AbortSignal): Promise<Slot>;
  release(slot: Slot): void;
  /** A request through this slot succeeded: the node keeps up. */
  succeeded(slot: Slot): void;
  /** A request through this slot met node trouble: halve, unless this round already did. */
  overloaded(slot: Slot): void;
  /** Delay before retry number `attempt` (1-based). */
  backoffMs(attempt: number): number;
  /** Sleeps the backoff of `attempt`, ending early on abort. */
  backoff(attempt: number, signal?: AbortSignal): Promise<void>;
}

export function createConcurrency(options: ConcurrencyOptions): Concurrency {
  const max = Math.max(1, options.max);
  const min = Math.min(max, Math.max(1, options.min ?? 1));
  const baseMs = options.backoffBaseMs ?? 250;
  const capMs = options.backoffMaxMs ?? 5000;
  const random = options.random ?? Math.random;
  let limit = Math.min(max, Math.max(min, options.initial ?? Math.min(max, 4)));
  let inFlight = 0;
  let round = 0;
  let successes = 0;
  let slowStart = true;
  const waiters: Array<() => void> = [];

  const wakeWaiters = () => {
    while (inFlight < limit && waiters.length > 0) {
      inFlight += 1;
      waiters.shift()!();
    }
  };

  const backoffMs = (attempt: number) => {
    const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
    // ±20 % jitter, so retries of many heights do not arrive together.
    return Math.round(exp * (0.8 + 0.4 * random()));
  };

  const newRound = () => {
    round += 1;
    successes = 0;
  };

  return {
    get limit() {
      return limit;
    },
    get inFlight() {
      return inFlight;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (inFlight < limit && waiters.length === 0) {
        inFlight += 1;
        return Promise.resolve({ round });
      }
      return new Promise<Slot>((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve({ round });
        };
        const onAbort = () => {
          const i = waiters.indexOf(grant);
          if (i !== -1) waiters.splice(i, 1);
          reject(signal!.reason);
        };
        waiters.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    release() {
      inFlight -= 1;
      wakeWaiters();
    },
    succeeded(slot) {
      if (slot.round !== round) return;
      successes += 1;
      if (slowStart) {
        if (limit < max) limit += 1;
      } else if (successes >= limit) {
        if (limit < max) limit += 1;
        newRound();
      }
      wakeWaiters();
    },
    overloaded(slot) {
      if (slot.round !== round) return;
      slowStart = false;
      limit = Math.max(min, Math.floor(limit / 2));
      newRound();
    },
    backoffMs,
    async backoff(attempt, signal) {
      try {
        await sleep(backoffMs(attempt), undefined, { signal });
      } catch {
        // Aborted: the caller checks its signal.
      }
    },
  };
}
