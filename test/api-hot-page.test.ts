import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import type { Db } from 'weft/store/db.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import { type ApiProcess, freePort, startApiProcess } from './api-process-support.js';
import { configFor, type RunningIndexer, startIndexer, testDevnet, waitFor } from './indexer-support.js';

/**
 * Wallets polling one page: 64 clients ask a `weft api` child process (PostgreSQL) for the newest
 * txs page for 15 s while the indexer writes the blocks a devnet produces. Every answer is a 200, the
 * store is read about once per block and per TTL (not once per client), no client waits for those
 * reads, and no answer is more than one block behind the store. Loopback only; the
 * load is bounded in time.
 */

const CLIENTS = 64;
const DURATION_MS = 15_000;
const LIST_TTL_MS = 1000;
/** Slower than the TTL, so that entries also expire while no block comes (the stale path). */
const BLOCK_EVERY_MS = 1400;
const PAGE = '/indexer/tx/v1/txs?pagination.limit=100';
/** Well past the API's 50 ms refresh of the indexed height and a page read under this load. */
const CLOSE_BLOCKS_MS = 300;

/** `weft_http_cache_total` by result, from the API's metrics. */
async function cacheResults(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const results: Record<string, number> = {};
  for (const [, result, value] of text.matchAll(
    /^weft_http_cache_total\{[^}]*result="(\w+)"[^}]*\} (\d+)$/gm,
  )) {
    results[result!] = Number(value);
  }
  return results;
}

const indexedHeight = async (db: Db) =>
  Number(
    (await db.query<{ height: string }>("SELECT height FROM progress WHERE name = 'block'"))[0]?.height ?? 0,
  );

interface Answer {
  status: number;
  cache: string;
  /** The store's indexed height when the request was sent. */
  headAtSend: number;
  /** The height of the page's newest tx. */
  newest: number;
  ms: number;
}

describe('a hot page under 64 polling clients while the indexer writes (PostgreSQL)', () => {
  const testDb = useTestDb('postgres');
  let devnet: Devnet;
  let db: Db;
  let indexer: RunningIndexer;
  let api: ApiProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    devnet = await testDevnet({ seed: 'hot-page', vms: ['move'], accounts: 8, txsPerBlock: 8 });
    await devnet.fastForward(20);
    db = await testDb.fresh();
    const chain = devnet.chains[0]!;
    indexer = startIndexer(configFor(chain, { pollIntervalMs: 50 }), db, silentLogger());
    await waitFor('the backfill', () => indexer.indexer.status().written >= chain.chain.latestHeight());
    const metricsPort = await freePort();
    api = await startApiProcess(testDb.dsn()!, {
      DB_SCHEMA: db.schema,
      CACHE_LIST_TTL: String(LIST_TTL_MS),
      METRICS_ENABLED: 'true',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
    });
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  }, 180_000);

  afterAll(async () => {
    await api?.stop();
    await indexer?.stop();
    await devnet?.close();
  });

  it('answers every client, reads the store per refresh rather than per client, and stays within a block of the store', async () => {
    // The store's indexed height as the clients see it, polled far faster than blocks come.
    let head = await indexedHeight(db);
    let polling = true;
    // Blocks indexed within CLOSE_BLOCKS_MS of the one before: the API may then see two at once.
    let closeBlocks = 0;
    let movedAt = 0;
    const poller = (async () => {
      while (polling) {
        const height = await indexedHeight(db);
        if (height > head) {
          const now = performance.now();
          if (height - head > 1 || now - movedAt < CLOSE_BLOCKS_MS) closeBlocks += 1;
          movedAt = now;
        }
        head = height;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const end = Date.now() + DURATION_MS;
    let blocks = 0;
    const producer = (async () => {
      while (Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, BLOCK_EVERY_MS));
        await devnet.step();
        blocks += 1;
      }
    })();

    // The page is in the cache before the clients start: the first read is not theirs to wait for.
    await fetch(`${api.url}${PAGE}`).then((response) => response.text());
    const before = await cacheResults(metricsUrl);
    const pool = new Pool(api.url, { connections: CLIENTS, pipelining: 1 });
    const answers: Answer[] = [];
    const client = async () => {
      while (Date.now() < end) {
        const headAtSend = head;
        const started = performance.now();
        const response = await pool.request({ method: 'GET', path: PAGE });
        const body = await response.body.text();
        const newest =
          response.statusCode === 200
            ? Number((JSON.parse(body) as { txs: Array<{ height: string }> }).txs[0]?.height)
            : 0;
        answers.push({
          status: response.statusCode,
          cache: String(response.headers['x-cache']),
          headAtSend,
          newest,
          ms: performance.now() - started,
        });
      }
    };
    try {
      await Promise.all(Array.from({ length: CLIENTS }, client));
      await producer;
    } finally {
      polling = false;
      await poller;
      await pool.close();
    }
    const after = await cacheResults(metricsUrl);
    const count = (result: string) => (after[result] ?? 0) - (before[result] ?? 0);

    const statuses = new Map<number, number>();
    for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect([...statuses], api.output.join('')).toEqual([[200, answers.length]]);

    // One key, read again when a block lands or its TTL runs out: a read per client would be hundreds.
    // An entry is stamped with the height its page was read at, so a block costs one read, whenever it
    // lands; the two spare reads are the TTLs that straddle the window's ends.
    const reads = count('miss');
    const refreshes = blocks + Math.ceil(DURATION_MS / LIST_TTL_MS);
    expect(reads, JSON.stringify({ after, before, blocks })).toBeLessThanOrEqual(refreshes + 2);
    expect(count('shared') + count('stale') + count('hit')).toBeGreaterThan(reads);
    expect(count('stale')).toBeGreaterThan(0);
    // No one waits for a read: past a TTL or a new block, one request reads the page again while the
    // others are answered the entry (stale, within the block the bound allows). Only two blocks known at
    // once put the entry out of bounds, and then the clients in flight wait for the one read.
    expect(count('shared'), JSON.stringify({ after, before, closeBlocks })).toBeLessThanOrEqual(
      CLIENTS * closeBlocks,
    );

    // A fresh read sent at `headAtSend` would hold every tx up to that height; none may miss more than its last block.
    const txHeights = (
      await db.query<{ height: string }>('SELECT DISTINCT height FROM tx ORDER BY height')
    ).map((row) => Number(row.height));
    const newestTxAtOrBelow = (height: number) => {
      let found = 0;
      for (const h of txHeights) if (h <= height) found = h;
      return found;
    };
    const behind = answers.filter((a) => a.newest < newestTxAtOrBelow(a.headAtSend - 1));
    expect(behind.slice(0, 5), `${behind.length} of ${answers.length} answers`).toEqual([]);

    const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
    process.stdout.write(
      `hot page: ${answers.length} answers, ${blocks} blocks, reads ${reads}, ${JSON.stringify({
        hit: count('hit'),
        stale: count('stale'),
        shared: count('shared'),
      })}, p99 ${p99.toFixed(0)} ms\n`,
    );
  }, 120_000);
});
