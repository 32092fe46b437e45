import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEV_NODE_FLAGS } from 'weft/cli/node-flags.js';
import { loadSettings, parse, type SettingsOf } from 'weft/common/config.js';
import { runStart } from './dev-start.js';

/**
 * `npm run bench -- dev`: the dev stack's cold and warm start, and its CPU and memory idle, with where
 * they go (`dev-start.ts`).
 *
 * `--backfill`: `weft dev` under backfill: the stack starts on stored chains (`--blocks` blocks of each rollup,
 * generated once into `.weft/bench-dev/`, copied per run) with an empty store, so every indexer
 * backfills at once. Meanwhile each chain's API is read by `--readers` clients in a closed loop,
 * in turn reading a first page of txs, `/status` and a route that does not exist; a query parameter
 * the routes ignore makes every URL new, so the response cache never answers and each read goes to
 * the store. Reported: latency percentiles per chain and route while any indexer is still behind
 * (`latency_all`: the store reads), the process's peak and final resident memory, and how long the
 * start and the backfill took, in time and in the process's CPU time.
 */

const ROOT = resolve(import.meta.dirname, '..');

const settings = {
  blocks: { flag: 'blocks', description: 'blocks of each rollup', parse: parse.int(10), default: 500 },
  txsPerBlock: {
    flag: 'txs-per-block',
    description: 'generated txs per block',
    parse: parse.int(1),
    default: 10,
  },
  vms: {
    flag: 'vms',
    description: 'rollups',
    parse: parse.listOf(parse.oneOf(['evm', 'move', 'wasm'] as const)),
    default: ['evm', 'move', 'wasm'] as Array<'evm' | 'move' | 'wasm'>,
  },
  readers: {
    flag: 'readers',
    description: 'concurrent API clients per chain',
    parse: parse.int(1, 16),
    default: 2,
  },
  maxSeconds: {
    flag: 'max-seconds',
    description: 'give up on the backfill after this long',
    parse: parse.int(10),
    default: 180,
  },
  backfill: {
    flag: 'backfill',
    description: 'measure the stack while it backfills stored chains, instead of its start and idle',
    parse: parse.bool,
    default: false,
    boolean: true,
  },
  traffic: {
    flag: 'traffic',
    description:
      "the stack's traffic: weft dev's own (dev) or the devnet's default (devnet: 1 s blocks of 10 txs)",
    parse: parse.oneOf(['dev', 'devnet'] as const),
    default: 'dev' as 'dev' | 'devnet',
  },
  idleSeconds: {
    flag: 'idle-seconds',
    description: 'how long the idle stack is measured',
    parse: parse.int(5),
    default: 30,
  },
  settleSeconds: {
    flag: 'settle-seconds',
    description: 'time after the table before the idle stack is measured',
    parse: parse.int(0),
    default: 15,
  },
  profile: {
    flag: 'profile',
    description: 'a third run, profiled, tells where the CPU goes',
    parse: parse.bool,
    default: true,
    boolean: true,
  },
};

interface Rollup {
  chainId: string;
  vm: string;
  height: number;
  api: string;
}

/**
 * The reads: a first page of txs, the status, and an unknown route (a 404 that reads nothing, so its
 * latency is the process's own delay, not the store's).
 */
const PATHS = {
  txs: '/indexer/tx/v1/txs?pagination.limit=10&',
  status: '/status?',
  none: '/no-such-route?',
};

const LINE =
  /^(\S+)\s+vm=(\S+)\s+height=(\d+) rpc=\S+ rest=\S+(?: json-rpc=\S+)? api=(http:\/\/127\.0\.0\.1:\d+)$/;

function weft(args: string[]): ChildProcess {
  return spawn(process.execPath, [...DEV_NODE_FLAGS, 'packages/weft/bin/weft.js', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The stored chains, generated (or extended) first when shorter than asked. */
async function ensureChains(s: { vms: string[]; blocks: number; txsPerBlock: number }): Promise<string> {
  const stateDir = join(ROOT, '.weft', 'bench-dev', `${s.vms.join('-')}-${s.txsPerBlock}`);
  const marker = join(stateDir, 'bench-blocks');
  const have = existsSync(marker) ? Number(readFileSync(marker, 'utf8')) : 0;
  if (have >= s.blocks) return stateDir;
  if (have === 0) rmSync(stateDir, { recursive: true, force: true });
  process.stderr.write(`bench: generating ${s.blocks - have} blocks per rollup into ${stateDir} (once)\n`);
  const generate = weft([
    'devnet',
    ...['--vms', s.vms.join(','), '--seed', 'bench', '--state-dir', stateDir, '--port-base', '0'],
    ...['--fast-forward', String(s.blocks - have), '--txs-per-block', String(s.txsPerBlock), '--exit'],
  ]);
  generate.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const [code] = await once(generate, 'exit');
  if (code !== 0) throw new Error(`generating the chains failed (exit ${code})`);
  writeFileSync(marker, String(s.blocks));
  return stateDir;
}

/** Resident memory of a live process (Linux `VmRSS` and its peak `VmHWM`), in MB. */
function rssMb(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** CPU time a live process has used, all its threads (Linux `utime + stime`), in seconds. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const ms = (n: number) => Math.round(n * 10) / 10;
  return {
    n: sorted.length,
    p50_ms: ms(at(0.5)),
    p90_ms: ms(at(0.9)),
    p99_ms: ms(at(0.99)),
    max_ms: ms(at(1)),
  };
}

/** Whether a chain's `/status` says everything up to `height` is indexed (on EVM the extensions too). */
function caughtUp(rollup: Rollup, status: Record<string, unknown>): boolean {
  if (status.height !== rollup.height) return false;
  if (rollup.vm !== 'evm') return true;
  return status.internal_tx_height === rollup.height && status.rich_list_height === rollup.height;
}

export async function run(argv: string[]) {
  const s = loadSettings(settings, { argv, env: {} });
  return s.backfill ? backfill(s) : { node: process.version, ...(await runStart(ROOT, s)) };
}

async function backfill(s: SettingsOf<typeof settings>) {
  const chains = await ensureChains(s);
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-dev-'));
  cpSync(chains, join(dir, 'chains'), { recursive: true });
  const started = performance.now();
  const child = weft([
    'dev',
    ...['--vms', s.vms.join(','), '--seed', 'bench', '--txs-per-block', String(s.txsPerBlock)],
    ...[
      '--state-dir',
      join(dir, 'chains'),
      '--data-dir',
      join(dir, 'store'),
      '--halt-height',
      String(s.blocks),
    ],
    ...['--port-base', '0', '--api-port-base', '0', '--router-port', '0', '--dashboard-port', '0'],
  ]);
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += String(d);
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  let peakDuringStart = 0;
  try {
    let rollups: Rollup[] = [];
    while (rollups.length < s.vms.length) {
      if (child.exitCode !== null) throw new Error(`weft dev exited (${child.exitCode}): ${stdout}`);
      peakDuringStart = Math.max(peakDuringStart, rssMb(child.pid!).rss);
      await sleep(50);
      rollups = stdout
        .split('\n')
        .map((line) => LINE.exec(line))
        .filter((m) => m !== null)
        .map((m) => ({ chainId: m[1]!, vm: m[2]!, height: Number(m[3]), api: m[4]! }));
    }
    const upAt = performance.now();
    const cpuAtUp = cpuSeconds(child.pid!);
    const latencies = new Map<string, number[]>();
    const done = new Set<string>();
    let errors = 0;
    let hits = 0;
    let reads = 0;
    let bust = 0;
    const deadline = upAt + s.maxSeconds * 1000;
    const read = async (rollup: Rollup, route: keyof typeof PATHS) => {
      const t0 = performance.now();
      const response = await fetch(`${rollup.api}${PATHS[route]}bench=${bust++}`);
      const body = (await response.json()) as Record<string, unknown>;
      const ms = performance.now() - t0;
      reads += 1;
      if (response.headers.get('x-cache') === 'hit') hits += 1;
      if (response.ok !== (route !== 'none')) errors += 1;
      // Only reads made while some indexer is still behind count.
      if (done.size < rollups.length) {
        const key = `${rollup.chainId} ${route}`;
        const samples = latencies.get(key) ?? [];
        samples.push(ms);
        latencies.set(key, samples);
      }
      if (route === 'status' && response.ok && caughtUp(rollup, body)) done.add(rollup.chainId);
    };
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(child.pid!).rss);
    }, 100);
    await Promise.all(
      rollups.flatMap((rollup) =>
        Array.from({ length: s.readers }, async () => {
          while (done.size < rollups.length && performance.now() < deadline) {
            await read(rollup, 'txs');
            await read(rollup, 'status');
            await read(rollup, 'none');
          }
        }),
      ),
    );
    clearInterval(sampler);
    const doneAt = performance.now();
    const cpuAtDone = cpuSeconds(child.pid!);
    if (done.size < rollups.length) throw new Error(`the backfill did not finish in ${s.maxSeconds} s`);
    await sleep(2000);
    const final = rssMb(child.pid!);
    const all = [...latencies].filter(([key]) => !key.endsWith('none')).flatMap(([, samples]) => samples);
    const byRoute = (route: string) =>
      [...latencies].filter(([key]) => key.endsWith(route)).flatMap(([, samples]) => samples);
    return {
      chains: rollups.map((r) => ({ chain_id: r.chainId, vm: r.vm, height: r.height })),
      txs_per_block: s.txsPerBlock,
      readers_per_chain: s.readers,
      backfill_s: Math.round((doneAt - upAt) / 100) / 10,
      start_s: Math.round((upAt - started) / 100) / 10,
      // Less sensitive than the times above to other work on the machine.
      cpu_s: { start: Math.round(cpuAtUp), backfill: Math.round(cpuAtDone - cpuAtUp) },
      reads,
      cache_hits: hits,
      errors,
      latency_all: percentiles(all),
      latency_txs: percentiles(byRoute('txs')),
      latency_status: percentiles(byRoute('status')),
      latency_no_store: percentiles(byRoute('none')),
      latency: Object.fromEntries([...latencies].map(([key, samples]) => [key, percentiles(samples)])),
      rss_mb: {
        peak: Math.round(Math.max(peak, peakDuringStart, final.peak)),
        after_backfill: Math.round(final.rss),
      },
      node: process.version,
    };
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}
