import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import {
  acceptedEncoding,
  COMPRESS_THRESHOLD,
  type Encoding,
  encodeBody,
  varyOnEncoding,
} from '../common/http-compression.js';
import { createByteLru } from '../common/lru.js';
import type { IndexedHead } from './indexed-head.js';

/**
 * A short in-memory cache of successful answers. Routes opt in with `config.cacheTtlMs`; answers
 * carry `X-Cache: hit|miss|stale`. Lists live about a second, single items about ten.
 *
 * The key is the validated request, not its URL: the route, its path parameters and the query
 * parameters its schema knows, in a fixed order, after defaults are applied. Parameters the API
 * ignores neither make entries nor get past the cache, and the whole is bounded in bytes.
 *
 * One store read per key at a time: a request that misses while another request's read of the same
 * key is in flight waits for that read and is answered what it got, an error included (errors are
 * never kept, so the next request reads again). Routes whose answers move with the chain
 * (`config.cacheFollowsHead`, the lists) are measured against the indexed height the API knows
 * (`IndexedHead`). Such an entry is stamped with the height its page was read at: the page's statement
 * reads the indexed height in its own snapshot (`asOfHeight`), so the stamp is exactly the blocks the
 * page holds, however the known height trailed the store. An entry is served, fresh or past its TTL,
 * while the known height has not moved past its stamp. Past its TTL, the request that finds it reads it
 * again (a miss) and the requests arriving while that one read runs are answered the entry (`stale`)
 * instead of waiting. The known height trails the store by a block at most, so such an answer is at
 * most one block behind what a fresh read would give. Once a block is known past the entry's, the entry
 * is one block behind the known height: the request that finds it reads the page again, and the
 * requests arriving while that read runs are answered the entry (`stale`) only when a height read begun
 * after they came in is still that one block past the entry's (one short read, shared by the requests
 * arriving meanwhile), else they wait for the read. So each key is read once per block and once per TTL
 * in which no block came, whatever the number of clients.
 */
export interface ResponseCacheOptions {
  enabled: boolean;
  /** Most answers kept. */
  maxEntries: number;
  /** Most bytes of answers (and keys) kept. */
  maxBytes: number;
  /** The indexed height the lists follow; absent: lists live their TTL and are never served stale. */
  head?: IndexedHead;
  onResult?: (result: CacheResult) => void;
}

const AS_OF_HEIGHT = Symbol('weft.asOfHeight');

/**
 * Marks a part of an answer (unsent: the property is a symbol, not enumerable) with the indexed height
 * the store read it at, in the same snapshot. List routes mark their `pagination`; the cache then stamps
 * the entry with that height rather than with the one it knew before the read.
 */
export function asOfHeight<T extends object>(part: T, height: number): T {
  return Object.defineProperty(part, AS_OF_HEIGHT, { value: height });
}

/** The height an answer's `pagination` was marked with. */
function heightOfAnswer(payload: unknown): number | undefined {
  const pagination = (payload as { pagination?: unknown } | null)?.pagination;
  if (typeof pagination !== 'object' || pagination === null) return undefined;
  const height = (pagination as { [AS_OF_HEIGHT]?: unknown })[AS_OF_HEIGHT];
  return typeof height === 'number' ? height : undefined;
}

/** `miss` is a store read; `shared` an answer from another request's read of the same key. */
export type CacheResult = 'hit' | 'miss' | 'stale' | 'shared';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How long this route's 200 answers may be served from the response cache. */
    cacheTtlMs?: number;
    /** The route's answers change with each block: see `installResponseCache`. */
    cacheFollowsHead?: boolean;
    /** The query parameters of the route's schema, in key order (set when the route is added). */
    cacheQuery?: string[];
  }
}

/**
 * How far behind the store an answer may be, in blocks. An entry is served as it is while no newer block
 * is known: the known height is read at most 50 ms before (`IndexedHead`) and blocks come further
 * apart, so it trails the store by a block at most. An entry one block behind the known height is served
 * only against a height read after the request came in: at least the store's height when it came.
 */
export const MAX_BLOCKS_BEHIND = 1;
/** How long past its TTL an entry that follows the head is kept to be served stale. */
const STALE_FOR_MS = 30_000;
/** Waits for other requests' reads before a request takes what the last one got, however old. */
const MAX_WAITS = 4;

interface Entry {
  body: string | Buffer;
  /** The body compressed, per encoding, made for the first request that accepts it (`http-compression.ts`). */
  encoded?: Partial<Record<Encoding, Buffer>>;
  /** When the entry was made (ms). */
  at: number;
  /** The indexed height known when its read began. */
  head?: number;
}

/** What one read answered, for the requests that waited for it. */
interface Answer {
  status: number;
  body: string | Buffer;
  contentType?: string;
  retryAfter?: string;
  head?: number;
}

interface Flight {
  done: Promise<Answer | undefined>;
}

interface Leader {
  key: string;
  head?: number;
  flight: Flight;
  settle: (answer: Answer | undefined) => void;
}

export type EntryState = 'hit' | 'stale' | 'behind' | 'expired';

/**
 * Whether an entry is served: within its TTL (`hit`); past it while no newer block is known (`stale`:
 * while a refresh runs); `MAX_BLOCKS_BEHIND` blocks behind the known height (`behind`: while a refresh
 * runs, against a height read after the request came in); or not at all. Without a known height a
 * following entry lives its TTL.
 */
export function entryState(
  entry: Entry,
  now: number,
  ttlMs: number,
  follows: boolean,
  known?: number,
): EntryState {
  const young = now - entry.at < ttlMs;
  if (!follows || known === undefined || entry.head === undefined) return young ? 'hit' : 'expired';
  const behind = known - entry.head;
  if (behind > MAX_BLOCKS_BEHIND) return 'expired';
  if (behind > 0) return 'behind';
  return young ? 'hit' : 'stale';
}

/** The query parameter names a route's querystring schema declares, sorted. */
function queryNames(route: RouteOptions): string[] {
  const properties = (route.schema?.querystring as { properties?: Record<string, unknown> } | undefined)
    ?.properties;
  return properties ? Object.keys(properties).sort() : [];
}

function cacheKey(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown> | undefined;
  const names = request.routeOptions.config.cacheQuery ?? [];
  const parts: unknown[] = [request.routeOptions.url, request.params];
  for (const name of names) parts.push(query?.[name] ?? null);
  return JSON.stringify(parts);
}

const bodyBytes = (body: string | Buffer) => (typeof body === 'string' ? body.length : body.byteLength);
const encodedBytes = (entry: Entry) =>
  entry.encoded ? Object.values(entry.encoded).reduce((sum, b) => sum + b.byteLength, 0) : 0;
const headerText = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

export function installResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  if (!options.enabled || options.maxEntries <= 0 || options.maxBytes <= 0) return;
  const cache = createByteLru<string, Entry>({
    maxBytes: options.maxBytes,
    maxEntries: options.maxEntries,
    sizeOf: (entry, key) => key.length + bodyBytes(entry.body) + encodedBytes(entry) + 64,
  });
  const flights = new Map<string, Flight>();
  const leaders = new WeakMap<FastifyRequest, Leader>();
  const ttlOf = (request: FastifyRequest) =>
    request.method === 'GET' ? request.routeOptions.config?.cacheTtlMs : undefined;
  /**
   * An entry's body as this request's answer: compressed for a client that accepts it, once per entry
   * and encoding (its leader's answer included), the compressed bytes then counted in the cache's bound.
   */
  const answerBody = (request: FastifyRequest, reply: FastifyReply, key: string, entry: Entry) => {
    const encoding = bodyBytes(entry.body) >= COMPRESS_THRESHOLD ? acceptedEncoding(request) : undefined;
    if (encoding === undefined) return entry.body;
    let encoded = entry.encoded?.[encoding];
    if (encoded === undefined) {
      encoded = encodeBody(entry.body, encoding);
      entry.encoded = { ...entry.encoded, [encoding]: encoded };
      if (cache.peek(key) === entry) cache.set(key, entry, { noUpdateTTL: true });
    }
    varyOnEncoding(reply);
    void reply.header('content-encoding', encoding);
    return encoded;
  };
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    entry: Entry,
    result: CacheResult,
  ) => {
    options.onResult?.(result);
    void reply
      .header('x-cache', result === 'shared' ? 'miss' : result)
      .type('application/json; charset=utf-8');
    return reply.send(answerBody(request, reply, key, entry));
  };
  const replay = (reply: FastifyReply, answer: Answer) => {
    options.onResult?.('shared');
    void reply.code(answer.status).header('x-cache', 'miss');
    if (answer.contentType) void reply.header('content-type', answer.contentType);
    if (answer.retryAfter) void reply.header('retry-after', answer.retryAfter);
    return reply.send(answer.body);
  };

  const lead = (request: FastifyRequest, key: string, head: number | undefined) => {
    let settle!: (answer: Answer | undefined) => void;
    const flight: Flight = { done: new Promise((resolve) => (settle = resolve)) };
    flights.set(key, flight);
    leaders.set(request, { key, head, flight, settle });
  };
  const land = (request: FastifyRequest, answer: Answer | undefined) => {
    const leader = leaders.get(request);
    if (!leader) return;
    leaders.delete(request);
    if (flights.get(leader.key) === leader.flight) flights.delete(leader.key);
    leader.settle(answer);
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.cacheTtlMs !== undefined) route.config.cacheQuery = queryNames(route);
  });

  // After validation: the key is made of the values the handler will see.
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const ttlMs = ttlOf(request);
    if (ttlMs === undefined) return;
    const key = cacheKey(request);
    const head = request.routeOptions.config.cacheFollowsHead === true ? options.head : undefined;
    const follows = head !== undefined;
    const arrived = performance.now();
    for (let waits = 0; ; waits += 1) {
      const known = head ? await head.height() : undefined;
      const entry = cache.get(key);
      const state = entry && entryState(entry, Date.now(), ttlMs, follows, known);
      if (entry && state === 'hit') return send(request, reply, key, entry, 'hit');
      const flight = flights.get(key);
      // The request that found the entry old reads it again; those arriving meanwhile need not wait.
      if (entry && state === 'stale' && flight) return send(request, reply, key, entry, 'stale');
      if (entry && state === 'behind' && flight && head) {
        // Within the bound only if the store is no further on than the height known: ask it.
        const now = await head.heightAfter(arrived);
        if (now !== undefined && now - entry.head! <= MAX_BLOCKS_BEHIND)
          return send(request, reply, key, entry, 'stale');
      }
      if (!flight) {
        // Stamped with the known height until the page says the height it was read at.
        lead(request, key, known);
        return;
      }
      const answer = await flight.done;
      if (!answer) continue;
      // An error is everyone's; a page read before the height moved on is read again.
      const current = answer.status !== 200 || !follows || known === undefined || answer.head === undefined;
      if (current || known - answer.head! < MAX_BLOCKS_BEHIND || waits + 1 >= MAX_WAITS) {
        return replay(reply, answer);
      }
    }
  });

  // A list's page was read at a height, in the statement's snapshot: its entry is stamped with that one.
  app.addHook('preSerialization', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    const leader = leaders.get(request);
    const height = leader?.head === undefined ? undefined : heightOfAnswer(payload);
    if (leader && height !== undefined) leader.head = height;
    return payload;
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const leader = leaders.get(request);
    if (leader === undefined) return done(null, payload);
    void reply.header('x-cache', 'miss');
    options.onResult?.('miss');
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined;
    const ttlMs = ttlOf(request) ?? 0;
    let sent = payload;
    if (body !== undefined && reply.statusCode === 200 && ttlMs > 0) {
      const follows = request.routeOptions.config.cacheFollowsHead === true && leader.head !== undefined;
      const entry: Entry = { body, at: Date.now(), head: leader.head };
      cache.set(leader.key, entry, { ttl: follows ? ttlMs + STALE_FOR_MS : ttlMs });
      // Compressed here, and kept, rather than by the plugin for this answer and again for the next.
      sent = answerBody(request, reply, leader.key, entry);
    }
    land(
      request,
      body === undefined
        ? undefined
        : {
            status: reply.statusCode,
            body,
            contentType: headerText(reply.getHeader('content-type')),
            retryAfter: headerText(reply.getHeader('retry-after')),
            head: leader.head,
          },
    );
    done(null, sent);
  });

  // A leader whose answer never reached onSend (its connection went first) lets its waiters read.
  app.addHook('onResponse', (request, _reply, done) => {
    land(request, undefined);
    done();
  });
}
