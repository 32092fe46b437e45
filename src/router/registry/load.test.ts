import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet } from '../../devnet/devnet.js';
import { testDevnet } from '../../devnet/test-support/devnet.js';
import { loadRegistry } from './load.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-registry-'));
let devnet: Devnet;
let server: Server;
let base = '';

/** Serves `root` as files over HTTP on loopback, as a registry web service would. */
function serveFolder(root: string): Promise<string> {
  server = createServer((request, response) => {
    try {
      const body = readFileSync(join(root, decodeURIComponent(new URL(request.url!, 'http://x').pathname)));
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`),
    ),
  );
}

beforeAll(async () => {
  devnet = await testDevnet({
    seed: 'registry-url',
    vms: ['evm', 'move'],
    accounts: 1,
    txsPerBlock: 0,
    registryDir: join(dir, 'folder'),
  });
  base = await serveFolder(join(dir, 'site'));
}, 60_000);

afterAll(async () => {
  server?.close();
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loadRegistry from a URL', () => {
  it("reads each chain's asset list where metadata.assetlist points, as registry.initia.xyz publishes them", async () => {
    // The web layout: chains.json at the root, asset lists under chains/<chain_name>/, named by URL.
    const folder = join(dir, 'folder');
    const chains = JSON.parse(readFileSync(join(folder, 'chains.json'), 'utf8')) as Array<{
      chain_name: string;
      metadata?: object;
    }>;
    for (const chain of chains) {
      cpSync(
        join(folder, chain.chain_name, 'assetlist.json'),
        join(dir, 'site', 'chains', chain.chain_name, 'assetlist.json'),
      );
      chain.metadata = { ...chain.metadata, assetlist: `${base}/chains/${chain.chain_name}/assetlist.json` };
    }
    writeFileSync(join(dir, 'site', 'chains.json'), JSON.stringify(chains));

    const fromFolder = await loadRegistry(folder);
    const fromUrl = await loadRegistry(base);
    expect(fromFolder.assets.length).toBeGreaterThanOrEqual(2);
    expect(fromUrl.chains.map((c) => c.chainId)).toEqual(fromFolder.chains.map((c) => c.chainId));
    expect(fromUrl.assets).toEqual(fromFolder.assets);

    // Without metadata.assetlist, chains/<chain_name>/assetlist.json beside chains.json is found too.
    for (const chain of chains) delete (chain.metadata as { assetlist?: string }).assetlist;
    writeFileSync(join(dir, 'site', 'chains.json'), JSON.stringify(chains));
    expect((await loadRegistry(base)).assets).toEqual(fromFolder.assets);
  });
});
