import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from 'weft/api/server.js';
import { SYNTHETIC_CHAIN, syntheticApi } from 'weft/api/test-support/synthetic-store.js';

/**
 * Answers compressed for the clients that ask, over a small synthetic store: the plugin's for answers
 * read from the store, the response cache's for the ones it serves, the same bytes once decoded.
 */

const CHAIN = SYNTHETIC_CHAIN;
const PAGE = '/indexer/tx/v1/txs?pagination.limit=20';
/** What browsers send. */
const BROWSER = 'gzip, deflate, br, zstd';

let api: ApiServer;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ api, close } = await syntheticApi({
    cache: { enabled: true, size: 100, listTtlMs: 60_000, itemTtlMs: 60_000 },
    cors: {
      enabled: true,
      allowOrigins: ['https://app.example.com'],
      allowMethods: ['GET', 'HEAD', 'OPTIONS'],
      allowHeaders: ['Origin', 'Content-Type'],
      exposeHeaders: ['X-Cache'],
      allowCredentials: false,
      maxAgeSeconds: 600,
    },
  }));
});
afterAll(() => close?.());

const get = (url: string, acceptEncoding?: string) =>
  api.app.inject({
    url,
    headers: {
      origin: 'https://app.example.com',
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
    },
  });

/** The answer's body decoded as its `content-encoding` says. */
function decoded(answer: LightMyRequestResponse): string {
  const raw = answer.rawPayload;
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'deflate') return inflateSync(raw).toString('utf8');
  expect(encoding).toBeUndefined();
  return raw.toString('utf8');
}

describe('compressed answers', () => {
  it('sends a list page gzipped to a browser, read from the store and from the cache, the same JSON', async () => {
    const plain = await get(`${PAGE}&pagination.offset=1`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.byteLength).toBeGreaterThan(4_000);

    const miss = await get(PAGE, BROWSER);
    const hit = await get(PAGE, BROWSER);
    expect([miss.headers['x-cache'], hit.headers['x-cache']]).toEqual(['miss', 'hit']);
    for (const answer of [miss, hit]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      // Both reasons the answer varies are named: CORS's and the encoding's.
      expect(String(answer.headers.vary).toLowerCase().split(/,\s*/)).toEqual(
        expect.arrayContaining(['origin', 'accept-encoding']),
      );
      // A third of the JSON or less (synthetic txs, random bytes mostly, compress less than real ones).
      expect(answer.rawPayload.byteLength * 3).toBeLessThan(decoded(answer).length);
    }
    expect(decoded(hit)).toBe(decoded(miss));
    const identity = await get(PAGE);
    expect(identity.headers['x-cache']).toBe('hit');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(decoded(hit));
    expect(JSON.parse(identity.body).txs).toHaveLength(20);
  });

  it('follows the client: its only encoding, its weights, identity and the wildcard, from the cache too', async () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      ['br', 'br'],
      ['deflate', 'deflate'],
      ['gzip;q=0, deflate', 'deflate'],
      ['br;q=1, gzip;q=0.5', 'br'],
      ['*', 'gzip'],
      ['x-gzip', 'gzip'],
      ['identity', undefined],
      ['compress', undefined],
      [undefined, undefined],
    ];
    const url = `${PAGE}&pagination.offset=2`;
    const expected = (await get(url)).body;
    for (const [accept, encoding] of cases) {
      for (const source of ['miss or hit', 'hit']) {
        const answer = await get(url, accept);
        expect([accept, source, answer.headers['content-encoding']]).toEqual([accept, source, encoding]);
        expect(decoded(answer)).toBe(expected);
      }
    }
  });

  it('sends small answers and errors as they are', async () => {
    const small = await get('/status', BROWSER);
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.byteLength).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().chain_id).toBe(CHAIN.chainId);
    const bad = await get('/indexer/tx/v1/txs?pagination.limit=nope', BROWSER);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-encoding']).toBeUndefined();
    expect(bad.json().message).toMatch(/limit/);
  });
});
