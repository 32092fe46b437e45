import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { NODE_FLAGS } from '../src/cli/node-flags.js';
import { loadSettings, parse } from '../src/common/config.js';
import { openDb } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';

/**
 * Ingestion speed: a devnet chain of `--blocks` blocks with `--txs-per-block` mixed txs each (generated
 * once into `.weft/bench-devnet/`, reused afterwards) is served by a devnet in a child process; an
 * indexer child process backfills it into a throw-away PostgreSQL database and into PGlite. Reported:
 * blocks/s and txs/s, the indexer's peak RSS, database bytes per 1,000 txs, and the ratio of the
 * indexer's rate to the raw rate of fetching the same documents with no processing (same run, same
 * concurrency).
 */

const ROOT = resolve(import.meta.dirname, '..');
const PG_URL = process.env.WEFT_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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
  return spawn(process.execPath, [...NODE_FLAGS, ...(options.nodeArgs ?? []), 'bin/weft.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

/** The stored chain, generated (or extended) first when it is shorter than asked. */
async function ensureChain(options: {
  vm: string;
  blocks: number;
  txsPerBlock: number;
  cpuProf: boolean;
}): Promise<Chain> {
  const stateDir = join(ROOT, '.weft', 'bench-devnet', `${options.vm}-${options.txsPerBlock}`);
  const nodeArgs = options.cpuProf ? profileArgs('devnet') : [];
  let chain = await serveChain(stateDir, options.vm, options.blocks, nodeArgs);
  if (chain.height >= options.blocks) return chain;
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
  let next = 1;
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
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next <= blocks) {
        const h = next++;
        await Promise.all([
          get(`${chain.rpc}/block?height=${h}`),
          get(`${chain.rpc}/block_results?height=${h}`),
          get(`${chain.rest}/cosmos/tx/v1beta1/txs/block/${h}?pagination.limit=100`),
          chain.jsonRpc ? jsonRpc('eth_getBlockReceipts', [`0x${h.toString(16)}`]) : undefined,
          chain.jsonRpc && traces && h > 1
            ? jsonRpc('debug_traceBlockByNumber', [`0x${h.toString(16)}`, { tracer: 'callTracer' }])
            : undefined,
        ]);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, blocksPerSecond: blocks / seconds, megabytes: bytes / 1e6 };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Peak resident set of a live process (Linux `VmHWM`), in MB. */
function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function metric(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(weft_indexer_(?:height|extension_height)(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) values.set(m[1]!, Number(m[2]));
  }
  return values;
}

async function sizeOf(db: { query<T>(sql: string): Promise<T[]> }): Promise<number> {
  const [row] = await db.query<{ size: string }>('SELECT pg_database_size(current_database()) AS size');
  return Number(row!.size);
}

interface Store {
  env: Record<string, string>;
  /** Bytes of the migrated, empty store. */
  before: number;
  after(): Promise<{ bytes: number; txs: number }>;
  drop(): Promise<void>;
}

async function postgresStore(): Promise<Store> {
  const name = `weft_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dsn = url.toString();
  const db = await openDb({ dsn });
  await migrate(db);
  const before = await sizeOf(db);
  return {
    env: { DB_DSN: dsn },
    before,
    async after() {
      const [row] = await db.query<{ n: string }>('SELECT count(*) AS n FROM tx');
      return { bytes: (await sizeOf(db)) - before, txs: Number(row!.n) };
    },
    async drop() {
      await db.close();
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function pgliteStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-pglite-'));
  const empty = await openDb({ dataDir: dir });
  await migrate(empty);
  const before = await sizeOf(empty);
  await empty.close();
  return {
    env: { DATA_DIR: dir },
    before,
    async after() {
      const db = await openDb({ dataDir: dir });
      try {
        const [row] = await db.query<{ n: string }>('SELECT count(*) AS n FROM tx');
        return { bytes: (await sizeOf(db)) - before, txs: Number(row!.n) };
      } finally {
        await db.close();
      }
    },
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function indexInto(
  backend: 'postgres' | 'pglite',
  chain: Chain,
  s: ReturnType<typeof loadSettings<typeof settings>>,
) {
  const store = backend === 'postgres' ? await postgresStore() : await pgliteStore();
  try {
    const port = await freePort();
    const metricsUrl = `http://127.0.0.1:${port}/metrics`;
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
      },
    });
    child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
    child.stdout!.on('data', (d: Buffer) => process.stderr.write(d));
    let firstBlockAt: number | undefined;
    let blocksDoneAt: number | undefined;
    let peakRss = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the indexer exited (${child.exitCode})`);
      peakRss = Math.max(peakRss, peakRssMb(child.pid!) ?? 0);
      const values = await metric(metricsUrl).catch(() => new Map<string, number>());
      const height = values.get('weft_indexer_height') ?? 0;
      const extensions = [...values].filter(([k]) => k.startsWith('weft_indexer_extension_height'));
      if (height > 0) firstBlockAt ??= performance.now();
      if (height >= s.blocks) blocksDoneAt ??= performance.now();
      if (blocksDoneAt && extensions.every(([, v]) => v >= s.blocks)) break;
      await sleep(100);
    }
    const allDoneAt = performance.now();
    peakRss = Math.max(peakRss, peakRssMb(child.pid!) ?? 0);
    await stop(child);
    const { bytes, txs } = await store.after();
    const seconds = (blocksDoneAt! - started) / 1000;
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
    };
  } finally {
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
      },
      results: indexed.map((r) => ({
        ...r,
        ratio_to_raw_fetch: Math.round((r.blocks_per_s / raw.blocksPerSecond) * 100) / 100,
      })),
      node: process.version,
    };
  } finally {
    await stop(chain.process);
  }
}
