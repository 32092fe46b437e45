import { encodeKey } from 'weft/api/pagination.js';
import { createApiServer } from 'weft/api/server.js';
import { toBech32 } from 'weft/chain/address.js';
import { loadSettings, parse } from 'weft/common/config.js';
import { DEFAULT_POOL_SIZE } from 'weft/store/db.js';
import { type CpuPerRequest, cpuMeter } from './api-cpu.js';
import { accountBytes, benchStore, CHAIN_ID, CONTRACT, HOT, MILD, PREFIX, WARM } from './api-data.js';
import { HOT_PAGE_NAME, hotPageScenario } from './api-hot-page.js';
import { storePathRates } from './api-store-path.js';
import { type LoadResult, runLoad, startLoadWorker } from './load.js';

/**
 * Read API throughput: a store of (default) 1,000,000 txs written through the real writer from
 * devnet-shaped blocks, served by one API process, loaded by autocannon in a child process at 32
 * connections over at least 1,000 distinct accounts, hashes and cursors. Every figure is also
 * given as a ratio to a trivial JSON route on the same server (the framework's ceiling). The
 * response cache is off unless `--cache` is given, so the figures are those of the store path.
 *
 * Two references serve a by-account page's bytes (the hot account's, limits 10 and 100, totals
 * included) from a Buffer, as the API sends its answers: what sending them costs this server and the
 * load generator, the bound the by-account scenarios can approach (`static_page_bytes` gives their
 * sizes). A string of the same bytes costs Node an encoding per request: on one 2-core machine it was
 * served at a seventh of the Buffer's rate, so references from strings flattered every ratio. In `goals`:
 * - `by_account_with_totals_over_static_page`: limit 10 by account (totals on) over its reference;
 * - `by_account_limit_100_with_totals_over_static_page_100`: the same at limit 100, and the limit-100
 *   route's `by_account_limit_100_p50_ms` / `_p99_ms`; `static_page_100_ratio_to_ceiling`.
 * - `by_account_over_static_pages_ok`: both ratios ≥ 0.7; `by_account_limit_100_p99_ok`: p99 < 50 ms.
 * - `by_account_limit_100_polled_over_static_page_100` and its p99: the 100-record pages after two
 *   unmeasured passes over them, as a wallet backend polls its accounts (the record cache then holds
 *   their records). The first pass reads each record from the store; it follows an unmeasured run of
 *   the same route on 1,000 other accounts' pages, so it pays for reading records, not for compiling
 *   the code that reads them.
 * `hot_page` (unless `--only` leaves it out): 64 clients on one txs page (100 records; `--hot-limit`) of an
 * API with its default caches while blocks are written to its store, beside the same bytes served from a
 * Buffer (bench/api-hot-page.ts): store reads (misses) per second,
 * 503s and p99.
 * `store_path` (without `--only`): the by-account page's reads alone, no HTTP, cached and uncached
 * (bench/api-store-path.ts), which shows what bounds the route.
 * Every scenario has `cpu_per_request` (bench/api-cpu.ts): the API's, the load generator's and the
 * PostgreSQL backends' CPU per request. The machine is saturated during a scenario, so a route can reach
 * at most its reference's CPU per request over its own of the reference's rate: in `goals`,
 * `…_cpu_bound` next to each by-account ratio, and `…_cpu_bound_without_api_work` with the API's own
 * work for the page at zero (PostgreSQL and the load generator as measured).
 * The ratios compare like with like only when the route's pages are full, as in the default store
 * (every loaded account has well over 100 txs); `by_account_limit_100_mean_response_bytes` next to
 * `static_page_bytes.limit_100` shows whether they are.
 *
 * The database (`weft_bench_api_<txs>`) is kept and reused when complete; `--rebuild` makes it anew.
 */

export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      txs: { flag: 'txs', description: 'txs in the store', parse: parse.int(10_000), default: 1_000_000 },
      seconds: { flag: 'seconds', description: 'load per scenario', parse: parse.int(1), default: 5 },
      connections: {
        flag: 'connections',
        description: 'autocannon connections',
        parse: parse.int(1),
        default: 32,
      },
      cache: {
        flag: 'cache',
        description: 'response cache on',
        parse: parse.bool,
        default: false,
        boolean: true,
      },
      poolSize: {
        flag: 'pool-size',
        description: 'PostgreSQL connections of the API (DB_POOL_SIZE; the default is weft api’s)',
        parse: parse.int(1, 1000),
        default: DEFAULT_POOL_SIZE,
      },
      recordCache: {
        flag: 'record-cache',
        description: 'megabytes of the API’s tx record cache (0: off; the API’s default is 96)',
        parse: parse.int(0),
        default: 96,
      },
      hotSeconds: {
        flag: 'hot-seconds',
        description: 'load of the hot-page scenario',
        parse: parse.int(1),
        default: 15,
      },
      hotLimit: {
        flag: 'hot-limit',
        description: 'records of the hot-page scenario’s page (pagination.limit)',
        parse: parse.int(1, 1000),
        default: 100,
      },
      hotClients: {
        flag: 'hot-clients',
        description: 'clients of the hot-page scenario',
        parse: parse.int(1),
        default: 64,
      },
      rebuild: {
        flag: 'rebuild',
        description: 'build the store anew',
        parse: parse.bool,
        default: false,
        boolean: true,
      },
      only: {
        flag: 'only',
        description: 'run only the scenarios whose name contains this text (and the ceiling)',
        parse: parse.string,
        default: '',
      },
      dsn: {
        flag: 'dsn',
        description: 'PostgreSQL server (the bench database is made on it)',
        parse: parse.string,
        default: 'postgres://postgres@127.0.0.1:5432/postgres',
      },
    },
    { argv, env: {} },
  );
  const { db, database, buildSeconds } = await benchStore(settings);
  let pageBody: Buffer = Buffer.alloc(0);
  let page100Body: Buffer = Buffer.alloc(0);
  const api = await createApiServer({
    db,
    chain: { chainId: CHAIN_ID, vm: 'evm', bech32Prefix: PREFIX, internalTx: true },
    cache: {
      enabled: settings.cache,
      size: 10_000,
      listTtlMs: 1000,
      itemTtlMs: 10_000,
      recordMb: settings.recordCache,
    },
    configure: (app) => {
      app.get('/bench/ping', async () => ({ pong: true }));
      // A by-account page's bytes with no store work: what sending them costs this server and the
      // load generator, the bound the by-account figures can approach.
      app.get('/bench/page', async (_request, reply) => reply.type('application/json').send(pageBody));
      app.get('/bench/page-100', async (_request, reply) => reply.type('application/json').send(page100Body));
    },
  });
  const base = await api.listen('127.0.0.1', 0);
  const child = startLoadWorker();
  const meter = await cpuMeter(settings.dsn, database, child.pid!);
  try {
    const bech = (n: number) => toBech32(PREFIX, accountBytes(n));
    const ordinary = Array.from({ length: 889 }, (_, i) => 200 + i * 19);
    const accountNumbers = [HOT, ...WARM, ...MILD, ...ordinary];
    const accounts = accountNumbers.map(bech);
    pageBody = (await api.app.inject(`/indexer/tx/v1/txs/by_account/${accounts[0]}?pagination.limit=10`))
      .rawPayload;
    page100Body = (await api.app.inject(`/indexer/tx/v1/txs/by_account/${accounts[0]}?pagination.limit=100`))
      .rawPayload;
    const hashes = (
      await db.query<{ hash: Buffer }>('SELECT hash FROM tx WHERE sequence % 997 = 0 LIMIT 1000')
    ).map((r) => r.hash.toString('hex'));
    const [{ n: blockCount }] = (await db.query<{ n: string }>(
      `SELECT n FROM counter WHERE name = 'block'`,
    )) as [{ n: string }];
    const blockKeys = Array.from({ length: 1000 }, (_, i) =>
      encodeKey({ height: Math.floor(((i + 1) * Number(blockCount)) / 1001) }),
    );
    const holderKeys = (
      await db.query<{ amount: string; account_id: string }>(
        `SELECT amount, account_id FROM (
           SELECT r.amount, r.account_id, row_number() OVER (ORDER BY r.amount DESC, r.account_id) AS n
           FROM rich_list r WHERE r.denom_id = (SELECT id FROM denom WHERE name = $1)) ranked
         WHERE n % 17 = 0 LIMIT 1000`,
        [CONTRACT],
      )
    ).map((r) => encodeKey({ amount: r.amount, accountId: Number(r.account_id) }));
    const nftOwners = [HOT, ...Array.from({ length: 999 }, (_, i) => 1 + i * 2)].map(bech);
    // Page 1,000 (rows 9,990–9,999) of the accounts with at least 10,000 txs, by key (a smaller
    // store walks as deep as its warm accounts allow).
    const deep = [HOT, ...WARM];
    const deepPage = Math.max(2, Math.min(1000, Math.floor(settings.txs / 1000)));
    const page1000 = [];
    for (const n of deep) {
      const [row] = await db.query<{ sequence: string }>(
        `SELECT e.sequence FROM tx_account e WHERE e.account_id = (SELECT id FROM account WHERE address = $1)
         ORDER BY e.sequence DESC OFFSET ${(deepPage - 1) * 10 - 1} LIMIT 1`,
        [accountBytes(n)],
      );
      page1000.push(
        `/indexer/tx/v1/txs/by_account/${bech(n)}?pagination.limit=10&pagination.key=${encodeURIComponent(encodeKey({ sequence: Number(row!.sequence) }))}`,
      );
    }

    const page100 = (a: string) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=100`;
    const pages100 = accounts.map(page100);
    // 1,000 other accounts (none of the loaded ones: 201 + 19i is never 200 + 19j), all with full pages.
    const otherPages100 = Array.from({ length: 1000 }, (_, i) => page100(bech(201 + i * 19)));
    // A scenario may first run unmeasured (`warmSeconds`), on its own paths (pages polled, as wallets
    // poll them) or on `warmPaths`.
    const scenarios: Array<[string, string[], { warmSeconds: number; warmPaths?: string[] }?]> = [
      ['ceiling: trivial JSON route', ['/bench/ping']],
      ['reference: a by-account page (limit 10) from a Buffer', ['/bench/page']],
      ['reference: a by-account page (limit 100) from a Buffer', ['/bench/page-100']],
      ['/status', ['/status']],
      ['/indexer/tx/v1/txs?pagination.limit=10', ['/indexer/tx/v1/txs?pagination.limit=10']],
      [
        'txs by account, limit 10, count_total=true',
        accounts.map((a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10`),
      ],
      [
        'txs by account, limit 10, count_total=false',
        accounts.map(
          (a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10&pagination.count_total=false`,
        ),
      ],
      // Warmed on other accounts' 100-record pages, whose records none of the loaded pages share: the
      // first pass then pays for reading and inflating its records, not for compiling the code that does.
      ['txs by account, limit 100', pages100, { warmSeconds: settings.seconds, warmPaths: otherPages100 }],
      [POLLED_100, pages100, { warmSeconds: 2 * settings.seconds }],
      ['tx by hash', hashes.map((h) => `/indexer/tx/v1/txs/${h}`)],
      [
        'blocks, limit 10',
        blockKeys.map(
          (k) => `/indexer/block/v1/blocks?pagination.limit=10&pagination.key=${encodeURIComponent(k)}`,
        ),
      ],
      [
        'NFT tokens by account, limit 10',
        nftOwners.map((a) => `/indexer/nft/v1/tokens/by_account/${a}?pagination.limit=10`),
      ],
      [
        'rich list, limit 10',
        holderKeys.map(
          (k) =>
            `/indexer/richlist/v1/${CONTRACT}?pagination.limit=10&pagination.key=${encodeURIComponent(k)}`,
        ),
      ],
      [
        'cursor walk page 1 (accounts with ≥ 10,000 txs)',
        deep.map((n) => `/indexer/tx/v1/txs/by_account/${bech(n)}?pagination.limit=10`),
      ],
      ['cursor walk page 1,000 (same accounts)', page1000],
      // The count_total pair again, in the other order: their comparison is of both runs each, so
      // neither gains from its place in the sequence (a warmer cache, a quieter machine).
      [
        'txs by account, limit 10, count_total=false (2nd run)',
        accounts.map(
          (a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10&pagination.count_total=false`,
        ),
      ],
      [
        'txs by account, limit 10, count_total=true (2nd run)',
        accounts.map((a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10`),
      ],
    ];
    const results: Record<
      string,
      LoadResult & { distinct_urls: number; cpu_per_request: CpuPerRequest; ratio_to_ceiling?: number }
    > = {};
    // A short warm-up so the first scenario does not pay for JIT and connections.
    await runLoad(child, {
      base,
      paths: accounts.map((a) => `/indexer/tx/v1/txs/by_account/${a}?pagination.limit=10`),
      connections: settings.connections,
      seconds: 2,
    });
    for (const [name, paths, warm] of scenarios) {
      if (settings.only && !name.includes(settings.only) && !/^(ceiling|reference)/.test(name)) continue;
      if (warm) {
        await runLoad(child, {
          base,
          paths: warm.warmPaths ?? paths,
          connections: settings.connections,
          seconds: warm.warmSeconds,
        });
      }
      await meter.start();
      const result = await runLoad(child, {
        base,
        paths,
        connections: settings.connections,
        seconds: settings.seconds,
      });
      const cpu = await meter.stop(result.requests_per_s * settings.seconds);
      results[name] = { ...result, distinct_urls: new Set(paths).size, cpu_per_request: cpu };
    }
    const ceiling = results['ceiling: trivial JSON route']!.requests_per_s;
    for (const result of Object.values(results))
      result.ratio_to_ceiling = Number((result.requests_per_s / ceiling).toFixed(3));
    const goals = settings.only ? undefined : goalsOf(results);
    const hotPage =
      settings.only && !HOT_PAGE_NAME.includes(settings.only)
        ? undefined
        : await hotPageScenario(child, {
            dsn: Object.assign(new URL(settings.dsn), { pathname: `/${database}` }).toString(),
            connections: settings.hotClients,
            seconds: settings.hotSeconds,
            limit: settings.hotLimit,
            poolSize: settings.poolSize,
          });
    // The by-account page's reads alone, beside the HTTP figures (skipped by --only).
    const storePath = settings.only
      ? undefined
      : await storePathRates(db, accountNumbers.map(accountBytes), {
          seconds: settings.seconds,
          concurrency: settings.connections,
        });
    return {
      txs: settings.txs,
      deep_page: deepPage,
      store: 'postgres',
      build_seconds: buildSeconds === null ? 'reused' : Number(buildSeconds.toFixed(1)),
      connections: settings.connections,
      seconds_per_scenario: settings.seconds,
      response_cache: settings.cache,
      record_cache_mb: settings.recordCache,
      pool_size: settings.poolSize,
      static_page_bytes: { limit_10: pageBody.byteLength, limit_100: page100Body.byteLength },
      results,
      hot_page: hotPage,
      store_path: storePath,
      goals,
    };
  } finally {
    await meter.close();
    child.kill();
    await api.close();
    await db.close();
  }
}

type Results = Record<string, LoadResult & { cpu_per_request: CpuPerRequest; ratio_to_ceiling?: number }>;

/** The rate ratio the CPU allows a route against its reference on a saturated machine. */
const cpuBound = (route: CpuPerRequest, reference: CpuPerRequest) =>
  Number((reference.total_us / Math.max(route.total_us, 1)).toFixed(3));

/**
 * The same with the API's own work for the route at zero: the API costing what sending the
 * reference costs it, the load generator and PostgreSQL as measured. Below 0.7, no change to the API
 * process reaches the goal; only less store or load-generator CPU per request would.
 */
const cpuBoundWithoutApiWork = (route: CpuPerRequest, reference: CpuPerRequest) =>
  Number((reference.total_us / Math.max(reference.api_us + route.load_us + route.postgres_us, 1)).toFixed(3));

/**
 * The 100-record pages again after two unmeasured passes over them (a wallet backend polling its
 * accounts): the record cache then holds their records (a record is kept from its second read), and a
 * page reads its keys from the store.
 */
const POLLED_100 = 'txs by account, limit 100, polled (after two passes)';

function goalsOf(results: Results) {
  const withTotal = results['txs by account, limit 10, count_total=true']!;
  const page1 = results['cursor walk page 1 (accounts with ≥ 10,000 txs)']!;
  const pageDeep = results['cursor walk page 1,000 (same accounts)']!;
  const reference = results['reference: a by-account page (limit 10) from a Buffer']!;
  const withTotal100 = results['txs by account, limit 100']!;
  const reference100 = results['reference: a by-account page (limit 100) from a Buffer']!;
  const meanOfRuns = (name: string) => (results[name]!.mean_ms + results[`${name} (2nd run)`]!.mean_ms) / 2;
  const totalMean = meanOfRuns('txs by account, limit 10, count_total=true');
  const noTotalMean = meanOfRuns('txs by account, limit 10, count_total=false');
  return {
    by_account_with_totals_ratio_to_ceiling: withTotal.ratio_to_ceiling,
    static_page_ratio_to_ceiling: reference.ratio_to_ceiling,
    by_account_with_totals_over_static_page: Number(
      (withTotal.requests_per_s / reference.requests_per_s).toFixed(3),
    ),
    static_page_100_ratio_to_ceiling: reference100.ratio_to_ceiling,
    by_account_limit_100_with_totals_over_static_page_100: Number(
      (withTotal100.requests_per_s / reference100.requests_per_s).toFixed(3),
    ),
    by_account_limit_100_polled_over_static_page_100: Number(
      (results[POLLED_100]!.requests_per_s / reference100.requests_per_s).toFixed(3),
    ),
    by_account_limit_100_polled_p99_ms: results[POLLED_100]!.p99_ms,
    // The same ratios as CPU allows them: each reference's CPU per request (API, load generator,
    // PostgreSQL) over the route's. The route's extra CPU is its store work; these show how far the
    // ratios can rise with no idle time left.
    by_account_with_totals_over_static_page_cpu_bound: cpuBound(
      withTotal.cpu_per_request,
      reference.cpu_per_request,
    ),
    by_account_limit_100_over_static_page_100_cpu_bound: cpuBound(
      withTotal100.cpu_per_request,
      reference100.cpu_per_request,
    ),
    by_account_with_totals_over_static_page_cpu_bound_without_api_work: cpuBoundWithoutApiWork(
      withTotal.cpu_per_request,
      reference.cpu_per_request,
    ),
    by_account_limit_100_over_static_page_100_cpu_bound_without_api_work: cpuBoundWithoutApiWork(
      withTotal100.cpu_per_request,
      reference100.cpu_per_request,
    ),
    by_account_limit_100_p50_ms: withTotal100.p50_ms,
    by_account_limit_100_p99_ms: withTotal100.p99_ms,
    by_account_limit_100_mean_response_bytes: Math.round(
      (withTotal100.mb_per_s * 1e6) / Math.max(withTotal100.requests_per_s, 1),
    ),
    by_account_over_static_pages_ok:
      withTotal.requests_per_s >= 0.7 * reference.requests_per_s &&
      withTotal100.requests_per_s >= 0.7 * reference100.requests_per_s,
    by_account_limit_100_p99_ok: withTotal100.p99_ms < 50,
    by_account_with_totals_ratio_ok: (withTotal.ratio_to_ceiling ?? 0) >= 0.2,
    by_account_with_totals_p99_ms: withTotal.p99_ms,
    by_account_with_totals_p99_ok: withTotal.p99_ms < 20,
    count_total_true_over_false_mean_latency: Number((totalMean / noTotalMean).toFixed(3)),
    count_total_ok: totalMean < 1.2 * noTotalMean,
    page_1000_over_page_1_p99: Number((pageDeep.p99_ms / Math.max(page1.p99_ms, 1)).toFixed(3)),
    page_1000_ok: pageDeep.p99_ms <= 1.5 * Math.max(page1.p99_ms, 1),
  };
}
