import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { asOfHeight, entryState, installResponseCache } from './response-cache.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A list route whose reads take `readMs` and are counted; `fail` makes them answer 503. */
async function listApp(options: {
  ttlMs: number;
  readMs: number;
  head?: () => number;
  /** The height a read begun now finds (default: `head`'s). */
  storeHead?: () => number;
  /** Marks each answer's `pagination` with the height its read found, as list routes do. */
  marked?: boolean;
  /** Characters of padding in each answer. */
  padding?: number;
}) {
  const app = Fastify() as unknown as FastifyInstance;
  const state = { reads: 0, fail: false, version: 0 };
  const head = options.head;
  installResponseCache(app, {
    enabled: true,
    maxEntries: 100,
    maxBytes: 1_000_000,
    ...(head
      ? { head: { height: async () => head(), heightAfter: async () => (options.storeHead ?? head)() } }
      : {}),
  });
  app.get(
    '/list',
    { config: { cacheTtlMs: options.ttlMs, cacheFollowsHead: true } },
    async (_request, reply) => {
      state.reads += 1;
      const version = ++state.version;
      await sleep(options.readMs);
      if (state.fail) return reply.code(503).header('retry-after', '1').send({ code: 14, message: 'busy' });
      if (options.padding) return { version, padding: 'weft '.repeat(options.padding / 5) };
      if (!options.marked) return { version };
      return { version, pagination: asOfHeight({ total: '1' }, (options.storeHead ?? head)!()) };
    },
  );
  await app.ready();
  return { app, state };
}

const many = (app: FastifyInstance, n: number) =>
  Promise.all(Array.from({ length: n }, () => app.inject('/list')));

describe('response cache', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('serves concurrent misses of one key from one read', async () => {
    const made = await listApp({ ttlMs: 10_000, readMs: 30 });
    app = made.app;
    const answers = await many(app, 20);
    expect(made.state.reads).toBe(1);
    expect(new Set(answers.map((a) => a.body))).toEqual(new Set(['{"version":1}']));
    expect(answers.map((a) => a.headers['x-cache'])).toEqual(Array(20).fill('miss'));
    expect((await app.inject('/list')).headers['x-cache']).toBe('hit');
  });

  it("gives every waiter the read's error, keeps none of it, and reads again on the next request", async () => {
    const made = await listApp({ ttlMs: 10_000, readMs: 30 });
    app = made.app;
    made.state.fail = true;
    const failed = await many(app, 10);
    expect(made.state.reads).toBe(1);
    expect(failed.map((a) => [a.statusCode, a.headers['retry-after']])).toEqual(Array(10).fill([503, '1']));
    made.state.fail = false;
    const next = await app.inject('/list');
    expect([next.statusCode, next.headers['x-cache'], made.state.reads]).toEqual([200, 'miss', 2]);
  });

  it('past its TTL serves the entry stale while one request reads it again, within a block of the head', async () => {
    let height = 10;
    const made = await listApp({ ttlMs: 40, readMs: 60, head: () => height });
    app = made.app;
    await app.inject('/list');
    await sleep(60);
    // One refresh runs; the others are answered at once from the old entry.
    const refreshing = app.inject('/list');
    await sleep(5);
    const during = await many(app, 5);
    expect(during.map((a) => [a.headers['x-cache'], a.body])).toEqual(
      Array(5).fill(['stale', '{"version":1}']),
    );
    expect([(await refreshing).headers['x-cache'], made.state.reads]).toEqual(['miss', 2]);

    // Two blocks on: the entry is too far behind, so requests wait for the one read.
    await sleep(60);
    height += 2;
    const waited = await many(app, 5);
    expect(made.state.reads).toBe(3);
    expect(new Set(waited.map((a) => [a.headers['x-cache'], a.body].join(' ')))).toEqual(
      new Set(['miss {"version":3}']),
    );
  });

  it('serves an entry one block behind while it is read again, if the store is no further on', async () => {
    let height = 10;
    let store = 10;
    const made = await listApp({ ttlMs: 10_000, readMs: 60, head: () => height, storeHead: () => store });
    app = made.app;
    await app.inject('/list');
    height = 11;
    store = 11;
    const refreshing = app.inject('/list');
    await sleep(5);
    const during = await many(app, 5);
    expect(during.map((a) => [a.headers['x-cache'], a.body])).toEqual(
      Array(5).fill(['stale', '{"version":1}']),
    );
    expect([(await refreshing).headers['x-cache'], made.state.reads]).toEqual(['miss', 2]);

    // The known height says one block, the store two: the entry is too old, so they wait.
    height = 12;
    store = 13;
    const waiting = app.inject('/list');
    await sleep(5);
    const waited = await many(app, 5);
    expect(waited.map((a) => [a.headers['x-cache'], a.body])).toEqual(
      Array(5).fill(['miss', '{"version":3}']),
    );
    expect([(await waiting).headers['x-cache'], made.state.reads]).toEqual(['miss', 3]);
  });

  it('stamps an entry with the height its page was read at, so a known height catching up to it costs no read', async () => {
    let height = 10;
    let store = 10;
    const made = await listApp({
      ttlMs: 10_000,
      readMs: 30,
      head: () => height,
      storeHead: () => store,
      marked: true,
    });
    app = made.app;
    // The store is a block past the known height when the page is read: the page holds block 11.
    store = 11;
    const first = await app.inject('/list');
    expect(first.body).toBe('{"version":1,"pagination":{"total":"1"}}');
    height = 11;
    const caughtUp = await many(app, 5);
    expect(caughtUp.map((a) => a.headers['x-cache'])).toEqual(Array(5).fill('hit'));
    expect(made.state.reads).toBe(1);
    // A block past the page's: read again, once.
    height = 12;
    store = 12;
    await many(app, 5);
    expect(made.state.reads).toBe(2);
  });

  it('serves its entries compressed to the clients that accept it, and small ones as they are', async () => {
    // No compression plugin here: what comes compressed, the cache compressed.
    const made = await listApp({ ttlMs: 10_000, readMs: 1, padding: 4000 });
    app = made.app;
    const plain = await app.inject('/list');
    const answers = await Promise.all(
      ['gzip', 'br', 'gzip, br', 'identity'].map((accept) =>
        app!.inject({ url: '/list', headers: { 'accept-encoding': accept } }),
      ),
    );
    expect(answers.map((a) => [a.headers['x-cache'], a.headers['content-encoding'], a.headers.vary])).toEqual(
      [
        ['hit', 'gzip', 'accept-encoding'],
        ['hit', 'br', 'accept-encoding'],
        ['hit', 'gzip', 'accept-encoding'],
        ['hit', undefined, undefined],
      ],
    );
    expect(gunzipSync(answers[0]!.rawPayload).toString()).toBe(plain.body);
    expect(brotliDecompressSync(answers[1]!.rawPayload).toString()).toBe(plain.body);
    expect(answers[2]!.rawPayload).toEqual(answers[0]!.rawPayload);
    expect(answers[0]!.rawPayload.byteLength * 20).toBeLessThan(plain.body.length);
    expect(made.state.reads).toBe(1);

    // The read's own answer comes compressed too, and its compressed bytes are what the next client gets.
    await app.close();
    const again = await listApp({ ttlMs: 10_000, readMs: 1, padding: 4000 });
    app = again.app;
    const gzip = { url: '/list', headers: { 'accept-encoding': 'gzip' } };
    const [miss, hit] = [await app.inject(gzip), await app.inject(gzip)];
    expect([miss.headers['x-cache'], miss.headers['content-encoding'], hit.headers['x-cache']]).toEqual([
      'miss',
      'gzip',
      'hit',
    ]);
    expect(Number(miss.headers['content-length'])).toBe(miss.rawPayload.byteLength);
    expect(gunzipSync(miss.rawPayload).toString()).toBe(plain.body);
    expect(hit.rawPayload).toEqual(miss.rawPayload);
    expect(again.state.reads).toBe(1);

    await app.close();
    app = (await listApp({ ttlMs: 10_000, readMs: 1 })).app;
    await app.inject('/list');
    const small = await app.inject({ url: '/list', headers: { 'accept-encoding': 'gzip' } });
    expect([small.headers['x-cache'], small.headers['content-encoding'], small.body]).toEqual([
      'hit',
      undefined,
      '{"version":1}',
    ]);
  });

  it('decides from the entry age and the head it was read at', () => {
    const entry = { body: '{}', at: 1000, head: 5 };
    expect(entryState(entry, 1500, 1000, true, 5)).toBe('hit');
    expect(entryState(entry, 2500, 1000, true, 5)).toBe('stale');
    expect(entryState(entry, 1500, 1000, true, 6)).toBe('behind');
    expect(entryState(entry, 2500, 1000, true, 6)).toBe('behind');
    expect(entryState(entry, 1500, 1000, true, 7)).toBe('expired');
    expect(entryState(entry, 2500, 1000, false, 5)).toBe('expired');
    expect(entryState(entry, 2500, 1000, true, undefined)).toBe('expired');
    expect(entryState(entry, 1500, 1000, true, undefined)).toBe('hit');
  });
});
