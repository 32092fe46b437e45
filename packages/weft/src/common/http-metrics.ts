import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

export interface ApiMetrics {
  requests: Counter<'method' | 'handler' | 'status'>;
  duration: Histogram<'method' | 'handler' | 'status'>;
  cache: Counter<'result'>;
}

/** HTTP metrics with rollytics' names under weft's prefix; `handler` is the route pattern, never the raw URL. */
export function createApiMetrics(registry: Registry): ApiMetrics {
  return {
    requests: new Counter({
      name: 'weft_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'handler', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'weft_http_request_duration_seconds',
      help: 'HTTP request duration, by method, route pattern and status',
      labelNames: ['method', 'handler', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    cache: new Counter({
      name: 'weft_http_cache_total',
      help: 'Response cache lookups of cacheable routes, by result',
      labelNames: ['result'],
      registers: [registry],
    }),
  };
}

export function installRequestMetrics(app: FastifyInstance, metrics: ApiMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      handler: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
