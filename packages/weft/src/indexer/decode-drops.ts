import type { Counter } from 'prom-client';
import type { Logger } from '../common/logger.js';
import type { DropReporter } from './decode/drops.js';

/**
 * The indexer's drop reporter: every drop counts in the metric; the log gets at most one warning per
 * decoder per `intervalMs`, saying how many drops it kept quiet about since the last one.
 */

export interface DropReporterOptions {
  logger: Logger;
  counter: Counter<'decoder' | 'reason'>;
  intervalMs?: number;
  now?: () => number;
}

export function createDropReporter(options: DropReporterOptions): DropReporter {
  const { logger, counter } = options;
  const intervalMs = options.intervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  const lastWarning = new Map<string, { at: number; suppressed: number }>();
  return {
    drop(decoder, reason, detail) {
      counter.inc({ decoder, reason });
      const at = now();
      const last = lastWarning.get(decoder);
      if (last && at - last.at < intervalMs) {
        last.suppressed += 1;
        return;
      }
      logger.warn(
        { decoder, reason, ...detail, suppressedSinceLastWarning: last?.suppressed ?? 0 },
        'a decoder dropped an event it cannot read; has the node format changed?',
      );
      lastWarning.set(decoder, { at, suppressed: 0 });
    },
  };
}
