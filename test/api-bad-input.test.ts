import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveChain } from 'weft/api/chain-context.js';
import { type ApiServer, createApiServer } from 'weft/api/server.js';
import { type ApiClient, createApiClient, urlOf } from 'weft/api/test-support/api-client.js';
import { indexChain, producedDevnet } from 'weft/api/test-support/indexed-devnet.js';
import { toBech32 } from 'weft/chain/address.js';
import { createLogger } from 'weft/common/logger.js';
import { openDb } from 'weft/store/db.js';
import type { Devnet } from 'weft-devnet/devnet.js';

/**
 * Malformed requests across every route of an EVM chain (the VM with the most routes): each gets a
 * 4xx JSON error `{code, message, details: []}` naming the problem, never a 5xx, HTML, an empty body
 * or a stack trace.
 */

const ACCOUNT = toBech32('init', new Uint8Array(20).fill(1));
const HASH = 'ab'.repeat(32);
const COLLECTION = `0x${'11'.repeat(20)}`;

/** Every route with a valid value for each path parameter. */
const ROUTES: Array<[string, Record<string, string>]> = [
  ['/status', {}],
  ['/indexer/block/v1/avg_blocktime', {}],
  ['/indexer/block/v1/blocks', {}],
  ['/indexer/block/v1/blocks/{height}', { height: '1' }],
  ['/indexer/tx/v1/txs', {}],
  ['/indexer/tx/v1/txs/by_account/{account}', { account: ACCOUNT }],
  ['/indexer/tx/v1/txs/by_height/{height}', { height: '1' }],
  ['/indexer/tx/v1/txs/{tx_hash}', { tx_hash: HASH }],
  ['/indexer/tx/v1/evm-txs', {}],
  ['/indexer/tx/v1/evm-txs/by_account/{account}', { account: ACCOUNT }],
  ['/indexer/tx/v1/evm-txs/by_height/{height}', { height: '1' }],
  ['/indexer/tx/v1/evm-txs/{tx_hash}', { tx_hash: HASH }],
  ['/indexer/tx/v1/evm-internal-txs', {}],
  ['/indexer/tx/v1/evm-internal-txs/by_account/{account}', { account: ACCOUNT }],
  ['/indexer/tx/v1/evm-internal-txs/by_height/{height}', { height: '1' }],
  ['/indexer/tx/v1/evm-internal-txs/{tx_hash}', { tx_hash: HASH }],
  ['/indexer/nft/v1/collections', {}],
  ['/indexer/nft/v1/collections/by_account/{account}', { account: ACCOUNT }],
  ['/indexer/nft/v1/collections/by_name/{name}', { name: 'cat' }],
  ['/indexer/nft/v1/collections/{collection_addr}', { collection_addr: COLLECTION }],
  ['/indexer/nft/v1/tokens/by_account/{account}', { account: ACCOUNT }],
  ['/indexer/nft/v1/tokens/by_collection/{collection_addr}', { collection_addr: COLLECTION }],
  ['/indexer/nft/v1/txs/{collection_addr}/{token_id}', { collection_addr: COLLECTION, token_id: '1' }],
  ['/indexer/richlist/v1/{denom}', { denom: COLLECTION }],
];

const SINGLE_ITEMS = new Set([
  '/status',
  '/indexer/block/v1/avg_blocktime',
  '/indexer/block/v1/blocks/{height}',
  '/indexer/tx/v1/txs/{tx_hash}',
  '/indexer/tx/v1/evm-txs/{tx_hash}',
  '/indexer/nft/v1/collections/{collection_addr}',
]);
const LISTS = ROUTES.filter(([template]) => !SINGLE_ITEMS.has(template));

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Bad pagination, each sent to every list route. */
const BAD_PAGINATION: Array<Record<string, string | string[]>> = [
  { 'pagination.limit': '0' },
  { 'pagination.limit': '-1' },
  { 'pagination.limit': '1001' },
  { 'pagination.limit': '99999999999999999999' },
  { 'pagination.limit': 'abc' },
  { 'pagination.limit': '1.5' },
  { 'pagination.limit': '1e2' },
  { 'pagination.limit': '0x10' },
  { 'pagination.limit': ['1', '2'] },
  { 'pagination.offset': '-1' },
  { 'pagination.offset': 'ten' },
  { 'pagination.offset': '2.5' },
  { 'pagination.offset': '99999999999999999999' },
  { 'pagination.offset': '100001' },
  { 'pagination.key': b64('100001') },
  { 'pagination.count_total': 'maybe' },
  { 'pagination.count_total': '2' },
  { 'pagination.reverse': 'yes please' },
  { 'pagination.reverse': 'ture' },
  { 'pagination.key': 'not base64!' },
  { 'pagination.key': '%%%' },
  { 'pagination.key': b64('garbage') },
  { 'pagination.key': b64('{"sequence":-1,"height":-1}') },
  { 'pagination.key': b64('{"sequence":"x","height":"y"}') },
  { 'pagination.key': b64('[]') },
  { 'pagination.key': b64('null') },
  { 'pagination.key': b64('{"sequence":1.5,"height":2.5}') },
  { 'pagination.key': b64('{}') },
];

const BAD_ACCOUNTS = [
  'xyz',
  'init1invalid',
  toBech32('cosmos', new Uint8Array(20).fill(1)),
  `0x${'a'.repeat(65)}`,
  '0x',
  '0xZZ',
  'g'.repeat(40),
  'x'.repeat(3000),
];
const BAD_HASHES = [
  'xyz',
  'a'.repeat(63),
  'a'.repeat(65),
  `0x${'g'.repeat(64)}`,
  '0x',
  `${'ab'.repeat(32)}00`,
  'by_account',
];
const BAD_HEIGHTS = ['abc', '0', '-1', '1.5', '1e3', '0x10', '99999999999999999999', ' 7'];
const BAD_COLLECTIONS = ['xyz', '0xZZ', `0x${'a'.repeat(65)}`, 'init1invalid'];

function badRequests(): string[] {
  const urls: string[] = [];
  for (const [template, params] of LISTS) {
    for (const query of BAD_PAGINATION) urls.push(urlOf(template, params, query));
  }
  for (const [template, params] of ROUTES) {
    for (const [name, bad] of [
      ['account', BAD_ACCOUNTS],
      ['tx_hash', BAD_HASHES],
      ['height', BAD_HEIGHTS],
      ['collection_addr', BAD_COLLECTIONS],
    ] as const) {
      if (!(name in params)) continue;
      for (const value of bad) urls.push(urlOf(template, { ...params, [name]: value }));
    }
  }
  for (const template of [
    '/indexer/tx/v1/txs/by_account/{account}',
    '/indexer/tx/v1/evm-txs/by_account/{account}',
  ]) {
    for (const value of ['maybe', '2', 'yes'])
      urls.push(urlOf(template, { account: ACCOUNT }, { is_signer: value }));
  }
  for (const template of [
    '/indexer/nft/v1/tokens/by_account/{account}',
    '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
  ]) {
    const params = { account: ACCOUNT, collection_addr: COLLECTION };
    for (const value of ['name', 'token', 'id', 'height,token_id'])
      urls.push(urlOf(template, params, { order_by: value }));
    for (const value of BAD_COLLECTIONS)
      urls.push(urlOf('/indexer/nft/v1/tokens/by_account/{account}', params, { collection_addr: value }));
  }
  // Unknown routes, versions and malformed encodings.
  urls.push(
    '/',
    '/foo',
    '/indexer',
    '/indexer/tx/v2/txs',
    '/indexer/tx/v1',
    '/indexer/tx/v1/txs/by_height',
    '/indexer/block/v1/blocks/1/extra',
    '/indexer/nft/v1/tokens',
    '/indexer/tx/v1/txs/%E0%A4%A',
    '/indexer/nft/v1/collections/by_name/%zz',
    '/indexer/richlist/v1',
    `/indexer/tx/v1/txs/by_account/${'a'.repeat(5000)}`,
    '/swagger/nope.json',
    '/status/extra',
  );
  return urls;
}

describe('bad input', () => {
  let devnet: Devnet;
  let api: ApiServer;
  let client: ApiClient;
  beforeAll(async () => {
    const produced = await producedDevnet('evm', 6, 'api-bad-input');
    devnet = produced.devnet;
    const db = await openDb({ dataDir: 'memory://' });
    await indexChain(produced.chain, db);
    api = await createApiServer({
      db,
      chain: await resolveChain(db, { internalTx: true }),
      restUrls: [produced.chain.urls.rest],
      logger: createLogger({ level: 'error', format: 'pretty', name: 'api' }),
    });
    client = createApiClient(api.app);
  });
  afterAll(async () => {
    await api?.close();
    await devnet?.close();
  });

  it('answers at least 500 malformed requests with 4xx JSON errors and no 5xx', async () => {
    const urls = badRequests();
    expect(urls.length).toBeGreaterThanOrEqual(500);
    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    for (const url of urls) {
      const answer = await client.raw(url);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status < 400 || answer.status >= 500) wrong.push(`${answer.status} ${url.slice(0, 160)}`);
      else expect(answer.body.code).toBe(answer.status === 404 ? 5 : 3);
    }
    expect(wrong).toEqual([]);
    expect([...statuses.keys()].every((status) => status >= 400 && status < 500)).toBe(true);
  });

  it('names the parameter and the rule in 400 messages', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/indexer/tx/v1/txs?pagination.limit=0', /pagination\.limit: 0 \(must be an integer from 1 to 1000\)/],
      ['/indexer/tx/v1/txs?pagination.limit=1e2', /pagination\.limit: 1e2/],
      ['/indexer/tx/v1/txs?pagination.offset=-1', /pagination\.offset/],
      [
        '/indexer/tx/v1/txs?pagination.offset=100001',
        /pagination\.offset: 100001 \(must be an integer from 0 to 100000; walk further with pagination\.key\)/,
      ],
      ['/indexer/nft/v1/collections/by_name/%21%20%2A', /name: ! \* \(must contain a letter or a digit\)/],
      ['/indexer/tx/v1/txs?pagination.reverse=maybe', /pagination\.reverse: maybe \(must be true or false\)/],
      ['/indexer/tx/v1/txs?pagination.key=abc!', /pagination\.key/],
      [`/indexer/tx/v1/txs/by_account/xyz`, /account: xyz \(expected a bech32 address with prefix init1/],
      ['/indexer/tx/v1/txs/xyz', /tx_hash: xyz \(expected 64 hex digits/],
      ['/indexer/block/v1/blocks/abc', /height: abc \(must be a positive integer\)/],
      ['/indexer/block/v1/blocks/0', /height: 0 \(must be a positive integer\)/],
      [
        `/indexer/nft/v1/tokens/by_account/${ACCOUNT}?order_by=name`,
        /order_by: "?name"? \(must be one of: token_id, height\)/,
      ],
    ];
    for (const [url, message] of cases) {
      const answer = await client.raw(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.message, url).toMatch(message);
    }
  });

  it('answers other methods, unknown routes and bodies with a JSON 404', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const answer = await client.raw('/indexer/tx/v1/txs', {
        method,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(`no route ${method} /indexer/tx/v1/txs`);
    }
    const options = await client.raw('/status', { method: 'OPTIONS' });
    expect(options.status).toBe(404);
    const post = await api.app.inject({
      method: 'POST',
      url: '/status',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(post.statusCode).toBe(404);
    expect(JSON.parse(post.body).code).toBe(5);
  });

  it('accepts rollytics spellings that are not errors', async () => {
    for (const url of [
      '/indexer/tx/v1/txs?pagination.reverse=1',
      '/indexer/tx/v1/txs?pagination.count_total=False',
      '/indexer/tx/v1/txs?pagination.limit=',
      '/indexer/tx/v1/txs?unknown=1&msgs=',
      `/indexer/tx/v1/txs/by_account/${ACCOUNT}?is_signer=T`,
      `/indexer/tx/v1/txs/by_account/0x${'0'.repeat(40)}`,
      '/indexer/tx/v1/txs/by_account/0x0',
      `/indexer/nft/v1/tokens/by_account/${ACCOUNT}?order_by=Height`,
      '/indexer/tx/v1/txs/',
      '/status/',
      `/indexer/tx/v1/txs?pagination.key=${b64('0')}`,
    ]) {
      const answer = await client.raw(url);
      expect(answer.status, url).toBe(200);
    }
  });
});

describe('an unreachable or empty store', () => {
  it('answers 503 while PostgreSQL cannot be reached', async () => {
    const db = await openDb({ dsn: 'postgres://postgres@127.0.0.1:9/none', connectTimeoutMs: 500 });
    const api = await createApiServer({
      db,
      chain: { chainId: 'x-1', vm: 'evm', bech32Prefix: 'init', internalTx: true },
    });
    try {
      for (const url of [
        '/status',
        '/indexer/tx/v1/txs',
        `/indexer/tx/v1/txs/${HASH}`,
        '/indexer/block/v1/blocks',
      ]) {
        const answer = await api.app.inject(url);
        expect(answer.statusCode, url).toBe(503);
        expect(JSON.parse(answer.body)).toEqual({
          code: 14,
          message: expect.stringContaining('database unavailable'),
          details: [],
        });
      }
    } finally {
      await api.close();
      await db.close();
    }
  });

  it('answers 503 while the store has no schema yet', async () => {
    const db = await openDb({ dataDir: 'memory://' });
    const api = await createApiServer({
      db,
      chain: { chainId: 'x-1', vm: 'move', bech32Prefix: 'init', internalTx: false },
    });
    try {
      const answer = await api.app.inject('/indexer/tx/v1/txs');
      expect(answer.statusCode).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({
        code: 14,
        message: expect.stringContaining('no indexed data yet'),
      });
    } finally {
      await api.close();
      await db.close();
    }
  });
});
