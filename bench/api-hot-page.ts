import type { ChildProcess } from 'node:child_process';
import { DEFAULT_CACHE, DEFAULT_STORE_LIMITS } from 'weft/api/config.js';
import { createApiServer } from 'weft/api/server.js';
import { createMetricsRegistry, type Registry } from 'weft/common/metrics.js';
import { openDb } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';
import { createBlockWriter } from 'weft/store/writer.js';
import { CHAIN_ID, generateBlocks, PREFIX } from './api-data.js';
import { type LoadResult, runLoad } from './load.js';

/**
 * Wallets polling one hot page while the indexer writes: `connections` clients (64) ask for the same
 * txs page (the default 100 records; `limit` sets another) of a `weft api` with its default caches,
 * store limits and pool, while blocks of 50 txs are written to its store through the real
 * writer once a second. The store is a schema of its own in the bench database (`hot_page`, made anew
 * each run, so the main store stays as built). `store_reads` are the response cache's misses (each one
 * read of the page); `status_503` the answers the load gate shed.
 *
 * `static_reference` is the same load on the same server, before the blocks start, of the page's bytes
 * served from a Buffer (no cache, no store): what sending them costs this server and the load generator.
 * Past a few hundred kilobytes a page, that is what bounds the hot page's rate and p99. The load
 * generator runs one thread per 32 clients: one thread reading such answers from 64 connections is
 * itself the bound (bench/load.ts).
 *
 * The scenario runs twice: as a client that asks for no encoding (autocannon's default), and, in
 * `browser`, with `accept-encoding` as browsers send it, where the answers are gzipped (the response
 * cache compresses each entry once) and the static reference is the page's gzipped bytes.
 */
const SCHEMA = 'hot_page';
const FIRST_BLOCKS = 100;
const BLOCK_EVERY_MS = 1000;
const CLIENTS_PER_LOAD_THREAD = 32;
export const HOT_PAGE_NAME = 'hot page';
const hotPage = (limit: number) =>
  limit === 100 ? '/indexer/tx/v1/txs' : `/indexer/tx/v1/txs?pagination.limit=${limit}`;

/** The hot page under writes, and its bytes from a Buffer, as one kind of client asks for it. */
export interface HotPageRun extends LoadResult {
  /** The bytes one answer takes (compressed for a browser). */
  answer_bytes: number;
  static_reference: LoadResult;
  blocks_written: number;
  store_reads: number;
  misses_per_s: number;
  status_503: number;
  cache: Record<string, number>;
}

export interface HotPageResult extends HotPageRun {
  page: string;
  page_bytes: number;
  connections: number;
  /** Threads of the load generator, the clients split among them. */
  load_threads: number;
  seconds: number;
  /** The same with `accept-encoding` as browsers send it: the cache's answers gzipped once per entry. */
  browser: HotPageRun;
}

/** What browsers send (and fetch in Node sends most of). */
const BROWSER_ACCEPT = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** The sum of a counter's values whose labels include `label="value"`, by another label's value. */
async function counterBy(registry: Registry, name: string, by: string): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(name)?.get();
  const out: Record<string, number> = {};
  for (const value of metric?.values ?? []) {
    const key = String(value.labels[by]);
    out[key] = (out[key] ?? 0) + value.value;
  }
  return out;
}

export async function hotPageScenario(
  child: ChildProcess,
  options: { dsn: string; connections: number; seconds: number; limit: number; poolSize: number },
): Promise<HotPageResult> {
  const setup = await openDb({ dsn: options.dsn, poolSize: 2 });
  await setup.exec(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await setup.close();
  const writerDb = await openDb({ dsn: options.dsn, schema: SCHEMA, poolSize: 2 });
  const apiDb = await openDb({
    dsn: options.dsn,
    schema: SCHEMA,
    poolSize: options.poolSize,
    statementTimeoutMs: DEFAULT_STORE_LIMITS.statementTimeoutMs,
  });
  const registry = createMetricsRegistry();
  try {
    await migrate(writerDb);
    const writer = createBlockWriter(writerDb, { chainId: CHAIN_ID, vm: 'evm', bech32Prefix: PREFIX });
    await writer.writeBlocks(generateBlocks(1, FIRST_BLOCKS));
    const page = hotPage(options.limit);
    let reference: { body: Buffer; encoding?: string } = { body: Buffer.alloc(0) };
    const api = await createApiServer({
      db: apiDb,
      chain: { chainId: CHAIN_ID, vm: 'evm', bech32Prefix: PREFIX, internalTx: true },
      cache: DEFAULT_CACHE,
      registry,
      configure: (app) => {
        // Sent as it is: the compression plugin leaves an answer that names its encoding alone.
        app.get('/bench/hot-page', async (_request, reply) => {
          if (reference.encoding) void reply.header('content-encoding', reference.encoding);
          return reply.type('application/json').send(reference.body);
        });
      },
    });
    let height = FIRST_BLOCKS;
    const workers = Math.ceil(options.connections / CLIENTS_PER_LOAD_THREAD);
    const run = async (base: string, headers: Record<string, string>): Promise<HotPageRun> => {
      const answer = await api.app.inject({ url: page, headers });
      reference = {
        body: answer.rawPayload,
        encoding: answer.headers['content-encoding'] as string | undefined,
      };
      const staticReference = await runLoad(child, {
        base,
        paths: ['/bench/hot-page'],
        headers,
        connections: options.connections,
        seconds: options.seconds,
        workers,
      });
      const before = {
        cache: await counterBy(registry, 'weft_http_cache_total', 'result'),
        statuses: await counterBy(registry, 'weft_http_requests_total', 'status'),
      };
      const first = height;
      let writing = true;
      const indexer = (async () => {
        while (writing) {
          await new Promise((resolve) => setTimeout(resolve, BLOCK_EVERY_MS));
          height += 1;
          await writer.writeBlocks(generateBlocks(height, height));
        }
      })();
      let load: LoadResult;
      try {
        load = await runLoad(child, {
          base,
          paths: [page],
          headers,
          connections: options.connections,
          seconds: options.seconds,
          workers,
        });
      } finally {
        writing = false;
        await indexer;
      }
      const since = (now: Record<string, number>, then: Record<string, number>) =>
        Object.fromEntries(Object.entries(now).map(([key, n]) => [key, n - (then[key] ?? 0)]));
      const cache = since(await counterBy(registry, 'weft_http_cache_total', 'result'), before.cache);
      const statuses = since(
        await counterBy(registry, 'weft_http_requests_total', 'status'),
        before.statuses,
      );
      const reads = cache.miss ?? 0;
      return {
        answer_bytes: reference.body.byteLength,
        static_reference: staticReference,
        blocks_written: height - first,
        ...load,
        store_reads: reads,
        misses_per_s: Number((reads / options.seconds).toFixed(2)),
        status_503: statuses['503'] ?? 0,
        cache,
      };
    };
    try {
      const base = await api.listen('127.0.0.1', 0);
      const pageBytes = (await api.app.inject(page)).rawPayload.byteLength;
      const plain = await run(base, {});
      const browser = await run(base, BROWSER_ACCEPT);
      return {
        page,
        page_bytes: pageBytes,
        connections: options.connections,
        load_threads: workers,
        seconds: options.seconds,
        ...plain,
        browser,
      };
    } finally {
      await api.close();
    }
  } finally {
    await apiDb.close();
    await writerDb.close();
  }
}
