import { rmSync } from 'node:fs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, createApiServer } from 'weft/api/server.js';
import { silentLogger } from 'weft/common/logger.js';
import { createRouterServer, type RouterServer } from 'weft/router/api/server.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import { NFT_L1, writeNftRegistry } from 'weft/router/test-support/nft-registry.js';
import { trackingRoutes } from 'weft/router/tracking/routes.js';
import { startTracker, type Tracker } from 'weft/router/tracking/tracker.js';
import { type Db, openDb } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';

/**
 * The same kinds of bad request sent to the indexer API, the router API and the router's tracking routes
 * get the same answer: one status, one gRPC code and one wording for each kind, in the body
 * `{code, message, details: []}`. No devnet: the indexer reads an empty embedded store, the router a
 * registry folder; the outage is a PostgreSQL that refuses connections on loopback.
 */

const UNREACHABLE = 'postgres://postgres@127.0.0.1:9/none';
const CHAIN = { chainId: 'errors-1', vm: 'evm' as const, bech32Prefix: 'init', internalTx: true };
const TRACKED = 'tracked-1';
const HASH = 'ab'.repeat(32);

let store: Db;
let unreachable: Db;
let indexer: ApiServer;
let indexerDown: ApiServer;
let registryDir: string;
let tracker: Tracker;
let router: RouterServer;

beforeAll(async () => {
  store = await openDb({ dataDir: 'memory://' });
  await migrate(store);
  unreachable = await openDb({ dsn: UNREACHABLE, connectTimeoutMs: 500 });
  indexer = await createApiServer({ db: store, chain: CHAIN });
  indexerDown = await createApiServer({ db: unreachable, chain: CHAIN });
  registryDir = writeNftRegistry();
  // The tracker's store is the unreachable one: what fails before a route reads it answers as usual.
  tracker = await startTracker({
    db: unreachable,
    chains: [{ chainId: TRACKED, kind: 'cosmos', rpc: 'http://127.0.0.1:9', rest: 'http://127.0.0.1:9' }],
    logger: silentLogger(),
    readyWaitMs: 10,
  });
  router = await createRouterServer({
    registry: await loadRegistry(registryDir),
    plugins: [trackingRoutes({ tracker })],
  });
});

afterAll(async () => {
  await router?.close();
  await tracker?.stop();
  await indexer?.close();
  await indexerDown?.close();
  await store?.close();
  await unreachable?.close();
  if (registryDir) rmSync(registryDir, { recursive: true, force: true });
});

type Part = 'indexer' | 'router' | 'tracking';

interface Expected {
  status: number;
  code: number;
  message: RegExp;
}

const json = (payload: string, contentType = 'application/json'): Partial<InjectOptions> => ({
  method: 'POST',
  payload,
  headers: { 'content-type': contentType },
});

/** A route request the router's schema accepts in every field but one. */
const routeBody = (extra: Record<string, unknown>) =>
  JSON.stringify({
    source_asset_denom: 'uinit',
    source_asset_chain_id: NFT_L1,
    dest_asset_denom: 'uinit',
    dest_asset_chain_id: NFT_L1,
    amount_in: '1',
    ...extra,
  });
const OVERSIZED = JSON.stringify({ tx_hash: 'a'.repeat(300 * 1024), chain_id: TRACKED });

const NO_ROUTE: Expected = { status: 404, code: 5, message: /^no route POST \/status$/ };
const BAD_JSON: Expected = { status: 400, code: 3, message: /^the body is not valid JSON$/ };
const MEDIA_TYPE: Expected = {
  status: 415,
  code: 3,
  message: /^unsupported content-type text\/plain: send application\/json$/,
};
const TOO_LARGE: Expected = {
  status: 413,
  code: 3,
  message: /^the body is larger than the 262144 bytes this route takes$/,
};
const OUTAGE: Expected = {
  status: 503,
  code: 14,
  message: /^database unavailable: PostgreSQL at 127\.0\.0\.1:9 \(DB_DSN\) refuses connections/,
};

/**
 * Each kind of bad request as each part receives it, and its answer. The indexer takes no bodies: a
 * request with one is a route it does not serve, whatever the body.
 */
const KINDS: Record<string, Partial<Record<Part, [Partial<InjectOptions>, Expected]>>> = {
  'an unknown route': {
    indexer: [
      { url: '/indexer/tx/v9/nope' },
      { status: 404, code: 5, message: /^no route GET \/indexer\/tx\/v9\/nope$/ },
    ],
    router: [
      { url: '/v2/fungible/nope' },
      { status: 404, code: 5, message: /^no route GET \/v2\/fungible\/nope$/ },
    ],
    tracking: [{ url: '/v2/tx/nope' }, { status: 404, code: 5, message: /^no route GET \/v2\/tx\/nope$/ }],
  },
  'a bad parameter value': {
    indexer: [
      { url: '/indexer/tx/v1/txs?pagination.limit=abc' },
      {
        status: 400,
        code: 3,
        message: /^invalid value for pagination\.limit: abc \(must be an integer from 1 to 1000\)$/,
      },
    ],
    router: [
      { url: '/v2/fungible/route', ...json(routeBody({ is_op_withdraw: 'maybe' })) },
      { status: 400, code: 3, message: /^invalid value for is_op_withdraw: maybe \(must be boolean\)$/ },
    ],
    tracking: [
      { url: '/v2/tx/recent?limit=abc' },
      { status: 400, code: 3, message: /^invalid value for limit: abc \(must be integer\)$/ },
    ],
  },
  'a missing parameter': {
    router: [
      { url: '/v2/fungible/route', ...json(JSON.stringify({ source_asset_denom: 'uinit' })) },
      { status: 400, code: 3, message: /^missing source_asset_chain_id$/ },
    ],
    tracking: [
      { url: `/v2/tx/status?chain_id=${TRACKED}` },
      { status: 400, code: 3, message: /^missing tx_hash$/ },
    ],
  },
  'a malformed JSON body': {
    indexer: [{ url: '/status', ...json('{not json') }, NO_ROUTE],
    router: [{ url: '/v2/fungible/route', ...json('{not json') }, BAD_JSON],
    tracking: [{ url: '/v2/tx/track', ...json('{not json') }, BAD_JSON],
  },
  'a body that is not an object': {
    router: [
      { url: '/v2/fungible/route', ...json('[]') },
      { status: 400, code: 3, message: /^invalid value for body: \[\] \(must be object\)$/ },
    ],
    tracking: [
      { url: '/v2/tx/track', ...json('"x"') },
      { status: 400, code: 3, message: /^invalid value for body: x \(must be object\)$/ },
    ],
  },
  'a wrong content type': {
    indexer: [{ url: '/status', ...json('x', 'text/plain') }, NO_ROUTE],
    router: [{ url: '/v2/fungible/route', ...json(routeBody({}), 'text/plain') }, MEDIA_TYPE],
    tracking: [{ url: '/v2/tx/track', ...json(`{"chain_id":"${TRACKED}"}`, 'text/plain') }, MEDIA_TYPE],
  },
  'an oversized body': {
    indexer: [{ url: '/status', ...json(OVERSIZED) }, NO_ROUTE],
    router: [{ url: '/v2/fungible/route', ...json(OVERSIZED) }, TOO_LARGE],
    tracking: [{ url: '/v2/tx/track', ...json(OVERSIZED) }, TOO_LARGE],
  },
  'a store outage': {
    indexer: [{ url: '/indexer/tx/v1/txs' }, OUTAGE],
    tracking: [{ url: `/v2/tx/status?chain_id=${TRACKED}&tx_hash=${HASH}` }, OUTAGE],
  },
};

const serverOf = (part: Part, kind: string): FastifyInstance =>
  part === 'indexer' ? (kind === 'a store outage' ? indexerDown : indexer).app : router.app;

describe('one answer to each kind of bad request, whichever API gets it', () => {
  for (const [kind, parts] of Object.entries(KINDS)) {
    it(kind, async () => {
      for (const [part, [request, expected]] of Object.entries(parts) as Array<
        [Part, [InjectOptions, Expected]]
      >) {
        const answer = await serverOf(part, kind).inject(request);
        const what = `${part}: ${request.method ?? 'GET'} ${request.url}`;
        expect(answer.headers['content-type'], what).toBe('application/json; charset=utf-8');
        expect({ status: answer.statusCode, body: answer.json() }, what).toEqual({
          status: expected.status,
          body: { code: expected.code, message: expect.stringMatching(expected.message), details: [] },
        });
      }
    });
  }
});
