import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';

export type { Registry };

/** One registry per process part, passed down explicitly (no global default registry). */
export function createMetricsRegistry(options: { defaultMetrics?: boolean; prefix?: string } = {}): Registry {
  const registry = new Registry();
  if (options.defaultMetrics)
    collectDefaultMetrics({ register: registry, prefix: options.prefix ?? 'weft_' });
  return registry;
}

/** Serves the registry on `path` (plain HTTP, no framework needed for one route). */
export async function serveMetrics(
  registry: Registry,
  options: { host: string; port: number; path: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== options.path) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${options.host}:${port}${options.path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
