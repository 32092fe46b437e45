import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveChain } from 'weft/api/chain-context.js';
import { loadApiConfig } from 'weft/api/config.js';
import { type ApiServer, createApiServer } from 'weft/api/server.js';
import { SYNTHETIC_CHAIN, syntheticStore } from 'weft/api/test-support/synthetic-store.js';
import { commitHash, packageVersion } from 'weft/common/build.js';
import { ConfigError } from 'weft/common/errors.js';
import { createApiMetrics } from 'weft/common/http-metrics.js';
import { createMetricsRegistry, serveMetrics } from 'weft/common/metrics.js';
import { type Db, openDb } from 'weft/store/db.js';

/** Server-wide behaviour over a small synthetic store: cache, CORS, request ids, metrics, OpenAPI, config. */

const CHAIN = SYNTHETIC_CHAIN;

let db: Db;
beforeAll(async () => {
  db = await syntheticStore();
});
afterAll(async () => {
  await db?.close();
});

describe('response cache', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await createApiServer({
      db,
      chain: CHAIN,
      cache: { enabled: true, size: 100, listTtlMs: 300, itemTtlMs: 10_000 },
    });
  });
  afterAll(() => api.close());

  it('serves a repeated GET from memory for its time to live', async () => {
    const first = await api.app.inject('/indexer/block/v1/blocks?pagination.limit=2');
    const second = await api.app.inject('/indexer/block/v1/blocks?pagination.limit=2');
    expect(first.headers['x-cache']).toBe('miss');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    const otherQuery = await api.app.inject('/indexer/block/v1/blocks?pagination.limit=3');
    expect(otherQuery.headers['x-cache']).toBe('miss');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await api.app.inject('/indexer/block/v1/blocks?pagination.limit=2')).headers['x-cache']).toBe(
      'miss',
    );
  });

  it('keys answers on the validated request: ignored parameters, their order and defaults make no new entry', async () => {
    const first = await api.app.inject('/indexer/tx/v1/txs?pagination.limit=3&pagination.reverse=false');
    expect(first.headers['x-cache']).toBe('miss');
    for (const url of [
      '/indexer/tx/v1/txs?pagination.reverse=false&pagination.limit=3',
      '/indexer/tx/v1/txs?pagination.limit=3&pagination.reverse=false&x1=1',
      '/indexer/tx/v1/txs?junk=a&pagination.limit=3&pagination.reverse=0&more=b',
      '/indexer/tx/v1/txs?pagination.limit=3&pagination.reverse=false&pagination.count_total=true',
    ]) {
      const answer = await api.app.inject(url);
      expect([url, answer.headers['x-cache'], answer.body]).toEqual([url, 'hit', first.body]);
    }
    // The default limit (100) and an explicit 100 are one request.
    expect((await api.app.inject('/indexer/tx/v1/txs?pagination.limit=100')).headers['x-cache']).toBe('miss');
    expect((await api.app.inject('/indexer/tx/v1/txs?y=2')).headers['x-cache']).toBe('hit');
    // Path parameters are part of the key.
    const one = await api.app.inject('/indexer/block/v1/blocks/1');
    const two = await api.app.inject('/indexer/block/v1/blocks/2');
    expect([one.headers['x-cache'], two.headers['x-cache']]).toEqual(['miss', 'miss']);
    expect(JSON.parse(two.body).block.height).toBe('2');
  });

  it('holds no more answers than its byte bound', async () => {
    const small = await createApiServer({
      db,
      chain: CHAIN,
      // 0.05 MB: a handful of 5-tx pages of this store.
      cache: { enabled: true, size: 100, responseMb: 0.05, listTtlMs: 60_000, itemTtlMs: 60_000 },
    });
    try {
      const page = (offset: number) => `/indexer/tx/v1/txs?pagination.limit=5&pagination.offset=${offset}`;
      const bytes = (await small.app.inject(page(0))).body.length;
      const fits = Math.floor((0.05 * 1024 * 1024) / bytes);
      for (let offset = 1; offset <= fits + 5; offset += 1) await small.app.inject(page(offset));
      // The first page was pushed out; the newest ones are still there.
      expect((await small.app.inject(page(0))).headers['x-cache']).toBe('miss');
      expect((await small.app.inject(page(fits + 5))).headers['x-cache']).toBe('hit');
    } finally {
      await small.close();
    }
  });

  it('does not cache errors', async () => {
    for (let i = 0; i < 2; i += 1) {
      const answer = await api.app.inject('/indexer/block/v1/blocks/999');
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['x-cache']).toBe('miss');
    }
  });
});

describe('CORS', () => {
  const cors = (allowOrigins: string[], allowCredentials = false) => ({
    enabled: true,
    allowOrigins,
    allowMethods: ['GET', 'HEAD', 'OPTIONS'],
    allowHeaders: ['Origin', 'Content-Type'],
    exposeHeaders: ['X-Cache'],
    allowCredentials,
    maxAgeSeconds: 600,
  });

  it('allows any origin with *, without credentials', async () => {
    const api = await createApiServer({ db, chain: CHAIN, cors: cors(['*'], true) });
    try {
      const answer = await api.app.inject({ url: '/status', headers: { origin: 'https://wallet.example' } });
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      expect(answer.headers['access-control-expose-headers']).toBe('X-Cache');
      const preflight = await api.app.inject({
        method: 'OPTIONS',
        url: '/indexer/tx/v1/txs',
        headers: { origin: 'https://wallet.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
      expect(preflight.headers['access-control-max-age']).toBe('600');
    } finally {
      await api.close();
    }
  });

  it('allows listed origins and *.domain subdomains only', async () => {
    const api = await createApiServer({
      db,
      chain: CHAIN,
      cors: cors(['https://app.example.com', '*.initia.xyz'], true),
    });
    try {
      const origin = async (value: string) =>
        (await api.app.inject({ url: '/status', headers: { origin: value } })).headers[
          'access-control-allow-origin'
        ];
      expect(await origin('https://app.example.com')).toBe('https://app.example.com');
      expect(await origin('https://scan.initia.xyz')).toBe('https://scan.initia.xyz');
      expect(await origin('https://a.b.initia.xyz:8443')).toBe('https://a.b.initia.xyz:8443');
      expect(await origin('https://initia.xyz.evil.com')).toBeUndefined();
      expect(await origin('https://evil.com')).toBeUndefined();
      const credentials = await api.app.inject({
        url: '/status',
        headers: { origin: 'https://app.example.com' },
      });
      expect(credentials.headers['access-control-allow-credentials']).toBe('true');
      // Without an Origin the request is served as usual.
      expect((await api.app.inject('/status')).statusCode).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('sends no CORS headers when disabled', async () => {
    const api = await createApiServer({ db, chain: CHAIN });
    try {
      const answer = await api.app.inject({ url: '/status', headers: { origin: 'https://wallet.example' } });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await api.close();
    }
  });
});

describe('request ids, metrics and OpenAPI', () => {
  let api: ApiServer;
  const registry = createMetricsRegistry();
  beforeAll(async () => {
    api = await createApiServer({ db, chain: CHAIN, registry });
  });
  afterAll(() => api.close());

  it("reports the running build's version and commit in /status", async () => {
    const body = JSON.parse((await api.app.inject('/status')).body);
    expect(body).toMatchObject({ version: packageVersion(), commit_hash: commitHash() });
    expect(body.commit_hash).toMatch(/^([0-9a-f]{40}|unknown)$/);
  });

  it('echoes a sane x-request-id and makes one otherwise', async () => {
    expect(
      (await api.app.inject({ url: '/status', headers: { 'x-request-id': 'abc-123' } })).headers[
        'x-request-id'
      ],
    ).toBe('abc-123');
    const made = (await api.app.inject({ url: '/nope', headers: { 'x-request-id': 'bad id\twith tab' } }))
      .headers['x-request-id'];
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts requests by route pattern and status', async () => {
    await api.app.inject('/indexer/block/v1/blocks/3');
    await api.app.inject('/indexer/block/v1/blocks/999');
    await api.app.inject('/does/not/exist');
    const text = await registry.metrics();
    expect(text).toContain(
      'weft_http_requests_total{method="GET",handler="/indexer/block/v1/blocks/:height",status="200"} 1',
    );
    expect(text).toContain(
      'weft_http_requests_total{method="GET",handler="/indexer/block/v1/blocks/:height",status="404"} 1',
    );
    expect(text).toContain('handler="unmatched",status="404"');
    expect(text).toContain('weft_http_request_duration_seconds_bucket');
  });

  it('serves metrics on their own port', async () => {
    const own = createMetricsRegistry();
    createApiMetrics(own).requests.inc({ method: 'GET', handler: '/status', status: '200' });
    const server = await serveMetrics(own, { host: '127.0.0.1', port: 0, path: '/metrics' });
    try {
      const text = await (await fetch(server.url)).text();
      expect(text).toContain('weft_http_requests_total{method="GET",handler="/status",status="200"} 1');
    } finally {
      await server.close();
    }
  });

  it('documents every route with its response schemas, and serves the browsable page', async () => {
    const doc = JSON.parse((await api.app.inject('/swagger/doc.json')).body);
    expect(doc.openapi).toBe('3.0.3');
    const paths = Object.keys(doc.paths).sort();
    expect(paths).toEqual(
      [
        '/status',
        '/indexer/block/v1/avg_blocktime',
        '/indexer/block/v1/blocks',
        '/indexer/block/v1/blocks/{height}',
        '/indexer/tx/v1/txs',
        '/indexer/tx/v1/txs/by_account/{account}',
        '/indexer/tx/v1/txs/by_height/{height}',
        '/indexer/tx/v1/txs/{tx_hash}',
        '/indexer/tx/v1/evm-txs',
        '/indexer/tx/v1/evm-txs/by_account/{account}',
        '/indexer/tx/v1/evm-txs/by_height/{height}',
        '/indexer/tx/v1/evm-txs/{tx_hash}',
        '/indexer/tx/v1/evm-internal-txs',
        '/indexer/tx/v1/evm-internal-txs/by_account/{account}',
        '/indexer/tx/v1/evm-internal-txs/by_height/{height}',
        '/indexer/tx/v1/evm-internal-txs/{tx_hash}',
        '/indexer/nft/v1/collections',
        '/indexer/nft/v1/collections/by_account/{account}',
        '/indexer/nft/v1/collections/by_name/{name}',
        '/indexer/nft/v1/collections/{collection_addr}',
        '/indexer/nft/v1/tokens/by_account/{account}',
        '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
        '/indexer/nft/v1/txs/{collection_addr}/{token_id}',
        '/indexer/richlist/v1/{denom}',
      ].sort(),
    );
    for (const path of paths) {
      const responses = doc.paths[path].get.responses;
      const ok = responses['200'].content['application/json'].schema;
      expect(ok.type, path).toBe('object');
      expect(Object.keys(ok.properties).length, path).toBeGreaterThan(0);
      expect(responses['400'].content['application/json'].schema.required).toEqual([
        'code',
        'message',
        'details',
      ]);
    }
    const limit = doc.paths['/indexer/tx/v1/txs'].get.parameters.find(
      (p: any) => p.name === 'pagination.limit',
    );
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 1000, default: 100 });
    const page = await api.app.inject('/swagger/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('leaves EVM paths out of the document of other VMs', async () => {
    const move = await createApiServer({ db, chain: { ...CHAIN, vm: 'move', internalTx: false } });
    try {
      const doc = JSON.parse((await move.app.inject('/swagger/doc.json')).body);
      expect(Object.keys(doc.paths).filter((p) => p.includes('evm') || p.includes('richlist'))).toEqual([]);
      expect(Object.keys(doc.paths)).toHaveLength(15);
    } finally {
      await move.close();
    }
  });

  it('finishes requests in flight when closed, then refuses new ones', async () => {
    // Close only once the request has reached the server, so it is really in flight.
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const other = await createApiServer({
      db,
      chain: CHAIN,
      configure: (app) => {
        app.addHook('onRequest', async () => arrived());
      },
    });
    const url = await other.listen('127.0.0.1', 0);
    const inFlight = fetch(`${url}/indexer/block/v1/blocks`);
    await reached;
    await other.close();
    expect((await inFlight).status).toBe(200);
    await expect(fetch(`${url}/status`)).rejects.toThrow();
  });
});

describe('configuration', () => {
  it('reads rollytics environment names and names a bad setting', () => {
    const config = loadApiConfig({
      argv: ['--port', '9999'],
      env: {
        CHAIN_ID: 'c-1',
        VM_TYPE: 'evm',
        CORS_ENABLED: 'true',
        CORS_ALLOW_ORIGINS: 'https://a.io,*.b.io',
        CACHE_LIST_TTL: '2s',
        RECORD_CACHE_SIZE: '16',
      },
    });
    expect(config).toMatchObject({
      port: 9999,
      chainId: 'c-1',
      vm: 'evm',
      cors: { enabled: true, allowOrigins: ['https://a.io', '*.b.io'] },
    });
    expect(config.cache.listTtlMs).toBe(2000);
    expect(config.cache.recordMb).toBe(16);
    expect(loadApiConfig({ argv: [], env: {} }).cache.recordMb).toBe(96);
    expect(loadApiConfig({ argv: [], env: {} }).db.poolSize).toBe(
      Math.min(10, Math.max(3, 2 * availableParallelism())),
    );
    expect(loadApiConfig({ argv: [], env: { DB_POOL_SIZE: '12' } }).db.poolSize).toBe(12);
    expect(() => loadApiConfig({ argv: [], env: { DB_POOL_SIZE: '0' } })).toThrow(/DB_POOL_SIZE/);
    expect(() => loadApiConfig({ argv: [], env: { RECORD_CACHE_SIZE: '-1' } })).toThrow(/RECORD_CACHE_SIZE/);
    expect(() => loadApiConfig({ argv: [], env: { PORT: 'eighty' } })).toThrow(
      /PORT: "eighty" is not an integer/,
    );
    expect(() => loadApiConfig({ argv: [], env: { VM_TYPE: 'cosmwasm' } })).toThrow(/VM_TYPE/);
    expect(() => loadApiConfig({ argv: [], env: { DB_DSN: 'mysql://x' } })).toThrow(/DB_DSN/);
  });

  it('takes the chain from the store and refuses one that does not match', async () => {
    expect(await resolveChain(db, { internalTx: true })).toEqual(CHAIN);
    await expect(resolveChain(db, { chainId: 'other-1', internalTx: true })).rejects.toThrow(ConfigError);
    await expect(resolveChain(db, { vm: 'move', internalTx: true })).rejects.toThrow(/VM_TYPE/);
    const empty = await openDb({ dataDir: 'memory://' });
    try {
      await expect(resolveChain(empty, { internalTx: true })).rejects.toThrow(
        /required while the store holds no chain/,
      );
      expect(await resolveChain(empty, { chainId: 'x-1', vm: 'wasm', internalTx: true })).toEqual({
        chainId: 'x-1',
        vm: 'wasm',
        bech32Prefix: 'init',
        internalTx: false,
      });
    } finally {
      await empty.close();
    }
  });
});
