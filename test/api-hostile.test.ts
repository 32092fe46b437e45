import { readFileSync } from 'node:fs';
import { toBech32 } from '@cosmjs/encoding';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from 'weft/store/db.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import { address, syntheticChain } from 'weft/store/test-support/chain.js';
import { createBlockWriter } from 'weft/store/writer.js';
import { startApiProcess } from './api-process-support.js';

/**
 * The API as an unfriendly client meets it, in a `weft api` child process over PostgreSQL:
 * thousands of 1,000-record pages whose URLs are made unique by a parameter the API ignores must
 * not grow its memory past a bound, and deep-offset scans must end at the statement timeout with a
 * JSON answer while `/status` keeps answering. Loopback only; every loop is bounded in count.
 */

const CHAIN = { chainId: 'hostile-1', vm: 'move', bech32Prefix: 'init' } as const;
const SCHEMA = 'hostile';
/** 100,000 txs over 3 accounts: every account is in most txs, so its filtered scans are long. */
const BLOCKS = 400;
const TXS_PER_BLOCK = 250;
/** 4,000 in CI; `HOSTILE_UNIQUE_REQUESTS=20000` repeats the load that once drove the API out of memory. */
const UNIQUE_REQUESTS = Number(process.env.HOSTILE_UNIQUE_REQUESTS ?? 4000);
const CONNECTIONS = 32;
/** The child's RSS must stay under this while it serves the unique-URL load. */
const RSS_BOUND_MB = 900;
/** Under the 60-odd ms a deep filtered by-account scan of this store takes, over /status's 1 ms. */
const STATEMENT_TIMEOUT_MS = 25;

const rssMb = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return line ? Number(line[1]) / 1024 : 0;
};

/** Runs `count` requests from `connections` loops; `next(i)` gives request i's path. */
async function load(
  pool: Pool,
  count: number,
  connections: number,
  next: (i: number) => string,
  onAnswer: (answer: { status: number; body: string | undefined; ms: number; retryAfter?: string }) => void,
  keepBody: (status: number) => boolean,
): Promise<void> {
  let issued = 0;
  const loop = async () => {
    while (issued < count) {
      const path = next(issued++);
      const started = performance.now();
      const response = await pool.request({ method: 'GET', path });
      let body: string | undefined;
      if (keepBody(response.statusCode)) body = await response.body.text();
      else await response.body.dump();
      const retryAfter = response.headers['retry-after'];
      onAnswer({
        status: response.statusCode,
        body,
        ms: performance.now() - started,
        retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
      });
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

describe('weft api under hostile load (PostgreSQL)', () => {
  const testDb = useTestDb('postgres');
  let db: Db;
  const account = toBech32(CHAIN.bech32Prefix, address(1));

  beforeAll(async () => {
    db = await testDb.root().withSchema(SCHEMA);
    const { migrate } = await import('weft/store/migrate.js');
    await migrate(db);
    const writer = createBlockWriter(db, CHAIN);
    const blocks = syntheticChain({
      blocks: BLOCKS,
      txsPerBlock: TXS_PER_BLOCK,
      accountsPerTx: 2,
      accounts: 3,
      seed: 7,
    });
    for (let from = 0; from < blocks.length; from += 50)
      await writer.writeBlocks(blocks.slice(from, from + 50));
  });

  afterAll(async () => {
    await db?.close();
  });

  it(
    `keeps its memory under ${RSS_BOUND_MB} MB and keeps answering through ${UNIQUE_REQUESTS} unique 1,000-record pages`,
    async () => {
      const api = await startApiProcess(testDb.dsn()!, { DB_SCHEMA: SCHEMA });
      const pool = new Pool(api.url, { connections: CONNECTIONS, pipelining: 1 });
      let peak = rssMb(api.child.pid!);
      const sampler = setInterval(() => {
        if (api.child.exitCode === null) peak = Math.max(peak, rssMb(api.child.pid!));
      }, 100);
      const statuses = new Map<number, number>();
      const notJson: string[] = [];
      try {
        await load(
          pool,
          UNIQUE_REQUESTS,
          CONNECTIONS,
          (i) => `/indexer/tx/v1/txs?pagination.limit=1000&pagination.count_total=false&x${i}=${i}`,
          ({ status, body }) => {
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status !== 200 && !body?.startsWith('{"code":')) notJson.push(`${status} ${body}`);
          },
          (status) => status !== 200,
        );
        // Still alive and answering.
        const after = await pool.request({ method: 'GET', path: '/status' });
        expect(after.statusCode).toBe(200);
        await after.body.dump();
      } finally {
        clearInterval(sampler);
        await pool.close();
        await api.stop();
      }
      console.log(
        JSON.stringify({
          unique_url_load: {
            requests: UNIQUE_REQUESTS,
            peak_rss_mb: Math.round(peak),
            statuses: [...statuses],
          },
        }),
      );
      expect(api.child.signalCode ?? api.child.exitCode).toBe(0);
      expect(notJson).toEqual([]);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(peak).toBeLessThan(RSS_BOUND_MB);
    },
    60_000 + UNIQUE_REQUESTS * 20,
  );

  it('ends every deep-offset scan at the statement timeout with a JSON answer while /status keeps answering', async () => {
    const api = await startApiProcess(testDb.dsn()!, {
      DB_SCHEMA: SCHEMA,
      CACHE_ENABLED: 'false',
      DB_STATEMENT_TIMEOUT: `${STATEMENT_TIMEOUT_MS}ms`,
      DB_POOL_SIZE: '4',
    });
    const scans = new Pool(api.url, { connections: 8, pipelining: 1 });
    const status = new Pool(api.url, { connections: 1, pipelining: 1 });
    const answers: Array<{
      status: number;
      code?: number;
      message?: string;
      ms: number;
      retryAfter?: string;
    }> = [];
    const statusMs: number[] = [];
    const statusFailures: string[] = [];
    let scanning = true;
    const pollStatus = async () => {
      for (let i = 0; scanning && i < 5000; i++) {
        const started = performance.now();
        const response = await status.request({ method: 'GET', path: '/status' });
        const body = await response.body.text();
        statusMs.push(performance.now() - started);
        if (response.statusCode !== 200) statusFailures.push(`${response.statusCode} ${body}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const polling = pollStatus();
    try {
      await load(
        scans,
        48,
        8,
        (i) =>
          `/indexer/tx/v1/txs/by_account/${account}?msgs=cosmos.bank.v1beta1.MsgSend,initia.move.v1.MsgExecute` +
          `&pagination.limit=1000&pagination.offset=${99_000 - i}`,
        ({ status, body, ms, retryAfter }) => {
          const parsed = JSON.parse(body!) as { code?: number; message?: string };
          answers.push({ status, code: parsed.code, message: parsed.message, ms, retryAfter });
        },
        () => true,
      );
    } finally {
      scanning = false;
      await polling;
      await scans.close();
      await status.close();
      await api.stop();
    }
    const cut = answers.filter((a) => a.status === 503 && a.code === 8);
    console.log(
      JSON.stringify({
        deep_scans: {
          scans: answers.length,
          stopped_by_timeout: cut.length,
          busy: answers.filter((a) => a.status === 503 && a.code === 14).length,
          served: answers.filter((a) => a.status === 200).length,
          scan_p99_ms: Math.round(
            percentile(
              answers.map((a) => a.ms),
              99,
            ),
          ),
          status_requests: statusMs.length,
          status_p50_ms: Math.round(percentile(statusMs, 50) * 10) / 10,
          status_p99_ms: Math.round(percentile(statusMs, 99) * 10) / 10,
        },
      }),
    );
    // Every scan got a JSON answer: its page, the timeout's 503 (code 8), or a busy 503 with Retry-After.
    for (const answer of answers) {
      if (answer.status === 200) continue;
      expect(answer.status).toBe(503);
      if (answer.code === 8) expect(answer.message).toMatch(/^query too expensive/);
      else expect([answer.code, answer.retryAfter]).toEqual([14, '1']);
    }
    // The scans are deep enough that the timeout must have stopped some of them.
    expect(cut.length).toBeGreaterThan(0);
    // A scan stopped by the timeout is answered soon after it; this bounds hangs, not speed.
    for (const answer of cut) expect(answer.ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 5000);
    expect(statusFailures).toEqual([]);
    expect(statusMs.length).toBeGreaterThan(0);
  });
});
