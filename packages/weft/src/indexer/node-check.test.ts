import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { IndexerConfig } from './config.js';
import { checkSurfaces, closeNodeClients, createNodeClients } from './node-check.js';

/** The node clients of `urls` (nothing listens on port 1 of loopback). */
function clients(urls: { rest: string; jsonRpc?: string }) {
  return createNodeClients({
    vm: urls.jsonRpc ? 'evm' : 'move',
    rpcUrls: ['http://127.0.0.1:1'],
    restUrls: [urls.rest],
    jsonRpcUrls: urls.jsonRpc ? [urls.jsonRpc] : [],
    queryTimeoutMs: 2000,
  } as IndexerConfig);
}

describe('checkSurfaces', () => {
  it('names the REST or JSON-RPC URL where nothing listens, with its setting', async () => {
    const dead = clients({ rest: 'http://127.0.0.1:1' });
    await expect(checkSurfaces(dead, new AbortController().signal, 0)).rejects.toMatchObject({
      message: 'nothing answers at http://127.0.0.1:1 (REST_URL): connection refused (ECONNREFUSED)',
      hint: 'start the node, or set --rest-url / REST_URL to the URL of one that answers',
    });
    await closeNodeClients(dead);

    // Any answer will do, even a 404: the node is there.
    const server = createServer((_req, res) => res.writeHead(404).end('not found'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const noJsonRpc = clients({ rest: url, jsonRpc: 'http://127.0.0.1:1' });
      await expect(checkSurfaces(noJsonRpc, new AbortController().signal, 0)).rejects.toThrow(
        'nothing answers at http://127.0.0.1:1 (JSON_RPC_URL)',
      );
      await closeNodeClients(noJsonRpc);
      const alive = clients({ rest: url, jsonRpc: url });
      await expect(checkSurfaces(alive, new AbortController().signal, 0)).resolves.toBeUndefined();
      await closeNodeClients(alive);
    } finally {
      server.close();
    }
  });
});
