import { describe, expect, it } from 'vitest';
import {
  FutureHeightError,
  NodeQueryError,
  NodeUnavailableError,
  PrunedHeightError,
} from '../chain/endpoints.js';
import { createMetricsRegistry, serveMetrics } from '../common/metrics.js';
import { createIndexerMetrics, errorKind } from './metrics.js';

describe('indexer metrics', () => {
  it('serves the registry on its path, on loopback, and nothing else', async () => {
    const registry = createMetricsRegistry();
    const metrics = createIndexerMetrics(registry);
    metrics.height.set(42);
    metrics.fetchErrors.inc({ kind: errorKind(new NodeUnavailableError('x', 'rate-limited')) });
    const server = await serveMetrics(registry, { host: '127.0.0.1', port: 0, path: '/metrics' });
    try {
      const text = await (await fetch(server.url)).text();
      expect(text).toMatch(/^weft_indexer_height 42$/m);
      expect(text).toMatch(/^weft_indexer_fetch_errors_total\{kind="rate_limited"\} 1$/m);
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('labels fetch errors by what went wrong', () => {
    expect(errorKind(new NodeUnavailableError('x', 'timeout'))).toBe('timeout');
    expect(errorKind(new FutureHeightError('x'))).toBe('future_height');
    expect(errorKind(new PrunedHeightError('x'))).toBe('pruned_height');
    expect(errorKind(new NodeQueryError('x', 400))).toBe('refused');
    expect(errorKind(new Error('x'))).toBe('other');
  });
});
