import { collectDefaultMetrics, Registry } from 'prom-client';

export type { Registry };

/** One registry per process part, passed down explicitly (no global default registry). */
export function createMetricsRegistry(options: { defaultMetrics?: boolean; prefix?: string } = {}): Registry {
  const registry = new Registry();
  if (options.defaultMetrics)
    collectDefaultMetrics({ register: registry, prefix: options.prefix ?? 'weft_' });
  return registry;
}
