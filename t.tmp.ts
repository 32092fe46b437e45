import http from 'node:http';
import { silentLogger } from './src/common/logger.js';
import { createRollup } from './src/devnet/rollup.js';
import { startNodeServers } from './src/devnet/servers/index.js';
const { chain } = await createRollup({ vm: 'move', chainId: 'x-1', seed: 's', accounts: 2, blockTimeMs: 1000, logger: silentLogger() });
await chain.produceBlock();
const servers = await startNodeServers(chain, {});
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'health' });
await new Promise<void>((resolve) => {
  const req = http.request(servers.urls.rpc + '/', { method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } }, (res) => {
    let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => { console.log('no content-type:', res.statusCode, b); resolve(); });
  });
  req.end(body);
});
await servers.close();
