import { createMetricsRegistry } from '../../common/metrics.js';
import { createDropReporter } from '../decode-drops.js';
import { createIndexerMetrics } from '../metrics.js';
import { captureRecords } from './logger.js';

/**
 * The indexer's drop reporter over a registry and a logger a test can read, with a clock the test
 * moves (`advance`).
 */
export function captureDrops() {
  const metrics = createIndexerMetrics(createMetricsRegistry());
  const { logger, records } = captureRecords('info');
  let clock = 0;
  const drops = createDropReporter({ logger, counter: metrics.decodeDrops, now: () => clock });
  return {
    drops,
    /** The metric's value for one decoder and reason (0 when never counted). */
    async count(decoder: string, reason: string): Promise<number> {
      const { values } = await metrics.decodeDrops.get();
      return values.find((v) => v.labels.decoder === decoder && v.labels.reason === reason)?.value ?? 0;
    },
    /** Every label pair counted, as `decoder/reason` → count. */
    async counts(): Promise<Record<string, number>> {
      const { values } = await metrics.decodeDrops.get();
      return Object.fromEntries(values.map((v) => [`${v.labels.decoder}/${v.labels.reason}`, v.value]));
    },
    warnings: () => records.filter((r) => r.level === 40),
    advance(ms: number) {
      clock += ms;
    },
  };
}
