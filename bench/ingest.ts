import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NODE_FLAGS } from 'weft/cli/node-flags.js';
import { loadSettings, parse } from 'weft/common/config.js';
import {
  acrossHeights,
  type BackendSampler,
  backendCpuSampler,
  CPU_GOALS,
  costReport,
  metric,
  peakRssMb,
  perBlock,
  processCpuMs,
} from './ingest-cpu.js';
import { floorPass } from './ingest-floor.js';
import { PG_URL, pgliteStore, postgresStore, sizeReport } from './ingest-store.js';

/**
 * Ingestion speed: a devnet chain of `--blocks` blocks with `--txs-per-block` mixed txs each (generated
 * once into `.weft/bench-devnet/<vm>-<txs>x<blocks>/`, reused afterwards: a chain of exactly that length,
 * as the indexer follows the node to its head) is served by a devnet in a child process; an
 * indexer child process backfills it into a throw-away PostgreSQL database and into PGlite. Reported:
 * blocks/s and txs/s, the indexer's peak RSS, database bytes per 1,000 txs, and the ratio of the
 * indexer's rate to the raw rate of fetching the same documents with no processing (same run, same
 * concurrency).
 *
 * Where the time goes, per backend in `results` (per block = divided by `--blocks`):
 * - `indexer_cpu_ms_per_block`: user + system CPU of the indexer process (`/proc/<pid>/stat`) from its
 *   start until the extensions are done too, start-up (tsx, migrations check) included; goal ≤ 3 ms
 *   (`indexer_cpu_ok`). `…_after_first_block`: from the first written block on (steadier on short runs).
 *   With PGlite the store runs inside the indexer, so its CPU is in these figures.
 * - `store_cpu_ms_per_block`: PostgreSQL only: CPU of the server backends connected to the bench's
 *   database (`pg_stat_activity`, sampled every ~100 ms as the pool may reconnect; the last reading of
 *   each backend counts; the bench's own connection is left out). Autovacuum workers on that database
 *   apart (`store_autovacuum_cpu_ms_per_block`); server-wide processes (WAL writer, checkpointer) are not
 *   counted. `store_backends`: backends seen. PGlite: null (`store_cpu_in` says where it is).
 * - `stages`: measured inside the indexer (`WEFT_STAGE_TIMES=1`, packages/weft/src/common/stage-times.ts defines
 *   them): `fetch` (node requests and JSON parse), `parse` (the JSON parse alone), `decode`, `build`
 *   (the writer's rows and parameters) and `write` (statements, begin, lock, commit). Stages overlap:
 *   many heights are fetched and decoded while a batch is written, so `wall_ms_per_block` figures are
 *   sums over heights, not shares of the elapsed time (fetch's is roughly in-flight heights × latency).
 *   `cpu_ms_per_block` is the time of a stage's synchronous sections on the indexer's JavaScript thread
 *   (parse, decode, build), which is that thread's CPU for them on a machine not oversubscribed; null
 *   where the work runs in callbacks between other work (fetch: the HTTP client; write: the driver,
 *   and PGlite's store). `unattributed_cpu_ms_per_block`: the indexer's CPU no stage accounts for
 *   (start-up, HTTP client, driver, GC, the extensions' writes, PGlite's store).
 * - `schema_bytes_per_tx`: `pg_total_relation_size` summed over every relation of the chain's schema
 *   after the run (tables, TOAST, indexes; the empty migrated tables included), divided by txs;
 *   `relations`: the same per relation, biggest first (`table_bytes` is the heap with its maps, TOAST
 *   apart). `db_bytes_per_1000_txs` stays the database's growth over the run.
 * - `devnet_cpu_ms_per_block`: the devnet process's CPU while it served that run (the indexer's node
 *   requests, its extensions' calls included). `ratio_ceiling` and `ratio_ceiling_at_cpu_goals`: the
 *   ratio to the raw fetch the machine's cores allow (`ratioCeilings` below).
 * Beside the results:
 * - `raw_fetch.devnet_cpu_ms_per_block` and `fetcher_cpu_ms_per_block`: what serving and fetching the
 *   documents as text cost the devnet and this process.
 * - `indexer_cpu_floor`: the CPU per block that fetching and parsing the documents with the indexer's
 *   own node clients and compressing the records cost with nothing else done (bench/ingest-floor.ts):
 *   what the indexer's CPU would be with decoding, row building and writing at zero.
 * - `cores`; at the top, `pglite_over_postgres_blocks_per_s`: PGlite's blocks/s over PostgreSQL's.
 */

const ROOT = resolve(import.meta.dirname, '..');

const settings = {
  blocks: { flag: 'blocks', description: 'chain length', parse: parse.int(10), default: 5000 },
  txsPerBlock: {
    flag: 'txs-per-block',
    description: 'mixed txs per block',
    parse: parse.int(1),
    default: 20,
  },
  vm: {
    flag: 'vm',
    description: 'rollup VM',
    parse: parse.oneOf(['evm', 'move', 'wasm'] as const),
    default: 'evm' as const,
  },
  backends: {
    flag: 'backends',
    description: 'stores to index into',
    parse: parse.listOf(parse.oneOf(['postgres', 'pglite'] as const)),
    default: ['postgres', 'pglite'] as Array<'postgres' | 'pglite'>,
  },
  concurrency: {
    flag: 'concurrency',
    description: 'MAX_CONCURRENT_REQUESTS of the indexer (and of the raw fetch)',
    parse: parse.int(1),
    default: 50,
  },
  batchSize: {
    flag: 'batch-size',
    description: 'BATCH_SIZE of the indexer',
    parse: parse.int(1),
    default: 100,
  },
  extensions: {
    flag: 'extensions',
    description: 'index internal txs and the rich list too (EVM)',
    parse: parse.bool,
    default: true,
  },
  cpuProf: {
    flag: 'cpu-prof',
    description: 'write CPU profiles of the indexer and the devnet to .weft/bench-prof/',
    parse: parse.bool,
    boolean: true,
    default: false,
  },
};

interface Chain {
  process: ChildProcess;
  chainId: string;
  height: number;
  rpc: string;
  rest: string;
  jsonRpc?: string;
}

/** Node flags that write a CPU profile of the process to `.weft/bench-prof/<name>/`. */
const profileArgs = (name: string) => [
  '--cpu-prof',
  '--cpu-prof-dir',
  join(ROOT, '.weft', 'bench-prof', name),
];

function weft(args: string[], options: { env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {}): ChildProcess {
  return spawn(
    process.execPath,
    [...NODE_FLAGS, ...(options.nodeArgs ?? []), 'packages/weft/bin/weft.js', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Serves the stored chain without producing blocks; resolves with its URLs once it listens. */
async function serveChain(
  stateDir: string,
  vm: string,
  halt: number,
  nodeArgs: string[] = [],
): Promise<Chain> {
  const child = weft(
    [
      'devnet',
      ...['--vms', vm, '--seed', 'bench', '--state-dir', stateDir, '--port-base', '0'],
      ...['--txs-per-block', '0', '--halt-height', String(halt), '--log-level', 'warn'],
    ],
    { nodeArgs },
  );
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  return new Promise<Chain>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const m = /^(\S+)\s+vm=\S+\s+height=(\d+) rpc=(\S+) rest=(\S+)(?: json-rpc=(\S+))?$/m.exec(out);
      if (m)
        resolve({
          process: child,
          chainId: m[1]!,
          height: Number(m[2]),
          rpc: m[3]!,
          rest: m[4]!,
          jsonRpc: m[5],
        });
    });
    child.once('exit', (code) => reject(new Error(`the devnet exited (${code}) before it served: ${out}`)));
  });
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.exitCode !== null) return;
  child.kill(signal);
  await once(child, 'exit');
}

/**
 * The stored chain of `blocks` heights, generated first (or extended, after an interrupted generation).
 * One folder per length: a longer chain would be indexed past `blocks`, and every per-block figure and
 * the txs count would then include heights the run does not count.
 */
async function ensureChain(options: {
  vm: string;
  blocks: number;
  txsPerBlock: number;
  cpuProf: boolean;
}): Promise<Chain> {
  const name = `${options.vm}-${options.txsPerBlock}x${options.blocks}`;
  const stateDir = join(ROOT, '.weft', 'bench-devnet', name);
  const nodeArgs = options.cpuProf ? profileArgs('devnet') : [];
  let chain = await serveChain(stateDir, options.vm, options.blocks, nodeArgs);
  if (chain.height > options.blocks) {
    await stop(chain.process);
    throw new Error(`${stateDir} holds ${chain.height} blocks, not ${options.blocks}: remove it`);
  }
  if (chain.height === options.blocks) return chain;
  await stop(chain.process);
  const missing = options.blocks - chain.height;
  process.stderr.write(`bench: generating ${missing} blocks into ${stateDir} (once)\n`);
  const generate = weft([
    'devnet',
    ...['--vms', options.vm, '--seed', 'bench', '--state-dir', stateDir, '--port-base', '0'],
    ...['--fast-forward', String(missing), '--txs-per-block', String(options.txsPerBlock), '--exit'],
  ]);
  generate.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const [code] = await once(generate, 'exit');
  if (code !== 0) throw new Error(`generating the chain failed (exit ${code})`);
  chain = await serveChain(stateDir, options.vm, options.blocks, nodeArgs);
  return chain;
}

/**
 * Fetches every height's documents (text only, no parsing), `concurrency` heights at a time: the ones the
 * indexer fetches per height, so its call traces too when it keeps internal txs.
 */
async function rawFetch(chain: Chain, blocks: number, concurrency: number, traces: boolean) {
  let bytes = 0;
  const jsonRpc = (method: string, params: unknown[]) =>
    get(chain.jsonRpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  const get = async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
    bytes += text.length;
  };
  const devnetCpu = processCpuMs(chain.process.pid!);
  const { seconds, cpuMs } = await acrossHeights(blocks, concurrency, (h) =>
    Promise.all([
      get(`${chain.rpc}/block?height=${h}`),
      get(`${chain.rpc}/block_results?height=${h}`),
      get(`${chain.rest}/cosmos/tx/v1beta1/txs/block/${h}?pagination.limit=100`),
      chain.jsonRpc ? jsonRpc('eth_getBlockReceipts', [`0x${h.toString(16)}`]) : undefined,
      chain.jsonRpc && traces && h > 1
        ? jsonRpc('debug_traceBlockByNumber', [`0x${h.toString(16)}`, { tracer: 'callTracer' }])
        : undefined,
    ]),
  );
  return {
    seconds,
    blocksPerSecond: blocks / seconds,
    megabytes: bytes / 1e6,
    devnetCpuMsPerBlock: cpuSince(chain, devnetCpu, blocks),
    fetcherCpuMsPerBlock: perBlock(cpuMs, blocks),
  };
}

/** The devnet's CPU per block since `before` (its `processCpuMs` then). */
function cpuSince(chain: Chain, before: number | null, blocks: number): number | null {
  const now = processCpuMs(chain.process.pid!);
  return now === null || before === null ? null : perBlock(now - before, blocks);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function indexInto(
  backend: 'postgres' | 'pglite',
  chain: Chain,
  s: ReturnType<typeof loadSettings<typeof settings>>,
) {
  const store = backend === 'postgres' ? await postgresStore() : await pgliteStore();
  let sampler: BackendSampler | undefined;
  try {
    const port = await freePort();
    const metricsUrl = `http://127.0.0.1:${port}/metrics`;
    sampler = store.database ? await backendCpuSampler(PG_URL, store.database) : undefined;
    const devnetCpu = processCpuMs(chain.process.pid!);
    const started = performance.now();
    const child = weft(['indexer'], {
      nodeArgs: s.cpuProf ? profileArgs(`indexer-${backend}`) : [],
      env: {
        ...store.env,
        CHAIN_ID: chain.chainId,
        VM_TYPE: s.vm,
        RPC_URL: chain.rpc,
        REST_URL: chain.rest,
        JSON_RPC_URL: chain.jsonRpc ?? '',
        MAX_CONCURRENT_REQUESTS: String(s.concurrency),
        BATCH_SIZE: String(s.batchSize),
        INTERNAL_TX: String(s.extensions && s.vm === 'evm'),
        RICH_LIST: String(s.extensions && s.vm === 'evm'),
        METRICS_ENABLED: 'true',
        METRICS_PORT: String(port),
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'warn',
        WEFT_STAGE_TIMES: '1',
      },
    });
    child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
    child.stdout!.on('data', (d: Buffer) => process.stderr.write(d));
    let firstBlockAt: number | undefined;
    let blocksDoneAt: number | undefined;
    let peakRss = 0;
    let cpuAtFirstBlock: number | undefined;
    let devnetCpuAtFirstBlock: number | null = null;
    let values = new Map<string, number>();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the indexer exited (${child.exitCode})`);
      peakRss = Math.max(peakRss, peakRssMb(child.pid!) ?? 0);
      await sampler?.sample();
      values = await metric(metricsUrl).catch(() => new Map<string, number>());
      const height = values.get('weft_indexer_height') ?? 0;
      const extensions = [...values].filter(([k]) => k.startsWith('weft_indexer_extension_height'));
      if (height > 0 && firstBlockAt === undefined) {
        firstBlockAt = performance.now();
        cpuAtFirstBlock = processCpuMs(child.pid!) ?? undefined;
        devnetCpuAtFirstBlock = processCpuMs(chain.process.pid!);
      }
      if (height >= s.blocks) blocksDoneAt ??= performance.now();
      if (blocksDoneAt && extensions.every(([, v]) => v >= s.blocks)) break;
      await sleep(100);
    }
    const allDoneAt = performance.now();
    peakRss = Math.max(peakRss, peakRssMb(child.pid!) ?? 0);
    // The last readings before the indexer stops: its CPU, its stage times, its backends' CPU.
    const cpuMs = processCpuMs(child.pid!);
    const devnetCpuMsPerBlock = cpuSince(chain, devnetCpu, s.blocks);
    const devnetAfterFirstBlock = cpuSince(chain, devnetCpuAtFirstBlock, s.blocks);
    values = await metric(metricsUrl).catch(() => values);
    await sampler?.sample();
    await stop(child);
    const { bytes, txs, relations } = await store.after();
    const seconds = (blocksDoneAt! - started) / 1000;
    const backends = sampler?.result();
    return {
      backend,
      seconds: round(seconds),
      blocks_per_s: round(s.blocks / seconds),
      txs_per_s: Math.round(txs / seconds),
      // Without the process start (tsx load, migrations check, node checks).
      blocks_per_s_after_first_block: round(s.blocks / ((blocksDoneAt! - firstBlockAt!) / 1000)),
      extensions_done_s: round((allDoneAt - started) / 1000),
      peak_rss_mb: Math.round(peakRss),
      db_bytes_per_1000_txs: Math.round((bytes / txs) * 1000),
      txs,
      ...costReport({ backend, blocks: s.blocks, cpuMs, cpuAtFirstBlock, backends, metrics: values }),
      devnet_cpu_ms_per_block: devnetCpuMsPerBlock,
      devnet_cpu_ms_per_block_after_first_block: devnetAfterFirstBlock,
      ...sizeReport(relations, txs),
    };
  } finally {
    await sampler?.close().catch(() => undefined);
    await store.drop();
  }
}

const round = (n: number) => Math.round(n * 10) / 10;

export async function run(argv: string[]) {
  const s = loadSettings(settings, { argv, env: {} });
  const chain = await ensureChain(s);
  try {
    // The raw rate is taken before and after the indexer runs (the devnet's caches and lazily loaded
    // state differ); the ratio uses the faster of the two, the stricter comparison.
    const traces = s.extensions && s.vm === 'evm';
    const rawBefore = await rawFetch(chain, s.blocks, s.concurrency, traces);
    const floor = await floorPass(chain, s.blocks, s.concurrency, traces);
    const indexed = [];
    for (const backend of s.backends) indexed.push(await indexInto(backend, chain, s));
    const rawAfter = await rawFetch(chain, s.blocks, s.concurrency, traces);
    const raw = rawAfter.blocksPerSecond > rawBefore.blocksPerSecond ? rawAfter : rawBefore;
    return {
      chain: { vm: s.vm, blocks: s.blocks, txs_per_block: s.txsPerBlock },
      indexer: { max_concurrent_requests: s.concurrency, batch_size: s.batchSize, extensions: s.extensions },
      raw_fetch: {
        documents: [
          'block',
          'block_results',
          'txs of the block',
          ...(chain.jsonRpc ? ['receipts'] : []),
          ...(traces ? ['call traces'] : []),
        ],
        blocks_per_s_before: round(rawBefore.blocksPerSecond),
        blocks_per_s_after: round(rawAfter.blocksPerSecond),
        megabytes: Math.round(raw.megabytes),
        devnet_cpu_ms_per_block: raw.devnetCpuMsPerBlock,
        fetcher_cpu_ms_per_block: raw.fetcherCpuMsPerBlock,
      },
      indexer_cpu_floor: floor,
      results: indexed.map((r) => ({
        ...r,
        ratio_to_raw_fetch: Math.round((r.blocks_per_s / raw.blocksPerSecond) * 100) / 100,
        ...ratioCeilings(r, raw.blocksPerSecond),
      })),
      cores: availableParallelism(),
      pglite_over_postgres_blocks_per_s: pgliteRatio(indexed),
      node: process.version,
    };
  } finally {
    await stop(chain.process);
  }
}

/**
 * What the cores allow. Devnet, indexer and PostgreSQL share them and a run keeps them busy, so a rate
 * of R blocks/s needs R × (devnet + indexer + store CPU per block) ≤ cores × 1000 ms. As ratios to the
 * raw fetch: `ratio_ceiling` with the run's own CPU figures (the actual ratio is below it by the idle
 * time), `ratio_ceiling_at_cpu_goals` with the indexer at 3 ms and the store at 2 ms per block (the
 * devnet as measured): below 0.7, the ratio goal is out of this machine's reach even with both CPU
 * goals met.
 */
function ratioCeilings(
  r: {
    backend: string;
    devnet_cpu_ms_per_block: number | null;
    indexer_cpu_ms_per_block: number | null;
    store_cpu_ms_per_block: number | null;
  },
  rawBlocksPerSecond: number,
) {
  const devnet = r.devnet_cpu_ms_per_block;
  if (devnet === null || r.indexer_cpu_ms_per_block === null) return {};
  const ceiling = (ms: number) =>
    Math.round(((availableParallelism() * 1000) / ms / rawBlocksPerSecond) * 100) / 100;
  const store = r.store_cpu_ms_per_block ?? 0;
  return {
    ratio_ceiling: ceiling(devnet + r.indexer_cpu_ms_per_block + store),
    ratio_ceiling_at_cpu_goals: ceiling(
      devnet + CPU_GOALS.indexer + (r.backend === 'postgres' ? CPU_GOALS.store : 0),
    ),
  };
}

function pgliteRatio(results: Array<{ backend: string; blocks_per_s: number }>): number | null {
  const of = (backend: string) => results.find((r) => r.backend === backend)?.blocks_per_s;
  const [pglite, postgres] = [of('pglite'), of('postgres')];
  return pglite && postgres ? Math.round((pglite / postgres) * 100) / 100 : null;
}
