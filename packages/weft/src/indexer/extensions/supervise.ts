import { setTimeout as sleep } from 'node:timers/promises';
import type { Counter } from 'prom-client';
import { errorMessage } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import { type BackoffOptions, exponentialBackoff } from '../retry.js';

/**
 * Keeps an extension going while blocks are indexed. A failure (any error: node trouble is retried
 * inside) is counted and logged as an error, and the extension starts again from its progress height
 * after a pause that doubles from `baseMs` to `maxMs`. A failure that does not go away thus repeats its
 * error line once per `maxMs` for as long as it lasts; the pause starts over once the extension writes.
 */

export const EXTENSION_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 60_000 };

export interface SupervisedWork {
  /** Work before any block is written (the rich-list snapshot); a failure is left to `run`. */
  initialize?(): Promise<void>;
  /** Runs until the abort; rejects on a failure. Must start over cleanly when called again. */
  run(): Promise<void>;
}

export interface SupervisorOptions {
  /** The metric label of the extension (`internal_tx`, `rich_list`). */
  label: string;
  /** Bound to the extension's name. */
  logger: Logger;
  failures: Counter<'extension'>;
  signal: AbortSignal;
  backoff?: BackoffOptions;
}

export interface Supervisor {
  /** Runs the work's `initialize`; a failure is counted, logged, and makes `run` wait its pause first. */
  initialize(): Promise<void>;
  /** Runs the work until the abort, starting it again after each failure. Never rejects. */
  run(): Promise<void>;
  /** The extension wrote up to `height`: the pause starts over. */
  written(height: number): void;
}

export function superviseExtension(work: SupervisedWork, options: SupervisorOptions): Supervisor {
  const { label, logger, failures, signal } = options;
  const delayOf = exponentialBackoff(options.backoff ?? EXTENSION_BACKOFF);
  // Failures since the extension last wrote.
  let attempt = 0;
  let pauseMs = 0;

  const failed = (err: unknown) => {
    attempt += 1;
    failures.inc({ extension: label });
    pauseMs = delayOf(attempt);
    logger.error(
      { attempt, retryInMs: pauseMs, err: errorMessage(err) },
      'extension failed; it starts again after a pause while blocks go on',
    );
  };

  return {
    async initialize() {
      try {
        await work.initialize?.();
      } catch (err) {
        if (!signal.aborted) failed(err);
      }
    },
    async run() {
      while (!signal.aborted) {
        if (pauseMs > 0) {
          await sleep(pauseMs, undefined, { signal }).catch(() => undefined);
          pauseMs = 0;
          if (signal.aborted) return;
        }
        try {
          await work.run();
          return;
        } catch (err) {
          if (signal.aborted) return;
          failed(err);
        }
      }
    },
    written(height) {
      if (attempt === 0) return;
      logger.info({ height, failures: attempt }, 'extension writes again');
      attempt = 0;
    },
  };
}
