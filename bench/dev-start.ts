import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEV_NODE_FLAGS } from 'weft/cli/node-flags.js';
import { cpuByPart } from './dev-profile.js';
import { CLK_TCK, processCpuMs } from './ingest-cpu.js';

/**
 * `weft dev` as `npm start` runs it (compiled, the full network, the default traffic), its chains and
 * stores in a new folder: a cold start (no chains, no stores), the stack idle (nobody calling) for
 * `idleSeconds`, then a warm start on what the cold run left. A third run, cold again and profiled
 * (`--cpu-prof`, every thread), tells where the CPU goes, at start and idle.
 */
export interface StartSettings {
  /** `dev`: `weft dev`'s own traffic; `devnet`: the devnet's default (a block a second, 10 txs each). */
  traffic: 'dev' | 'devnet';
  idleSeconds: number;
  settleSeconds: number;
  profile: boolean;
}

const CONTROL_ROW = /^control\s+url=/m;

interface Run {
  child: ChildProcess;
  /** Seconds from the spawn to the table's last row. */
  tableS: number;
  /** The process's CPU seconds (every thread) when the table was printed. */
  cpuS: number;
}

const TRAFFIC_ARGS = { dev: [], devnet: ['--block-time', '1s', '--txs-per-block', '10'] };

async function start(root: string, dir: string, s: StartSettings, nodeFlags: string[] = []): Promise<Run> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...DEV_NODE_FLAGS, ...nodeFlags, 'packages/weft/bin/weft.js', 'dev'].concat(
      ['--state-dir', join(dir, 'chains'), '--data-dir', join(dir, 'store')],
      ['--registry', join(dir, 'registry'), '--port-base', '0', '--api-port-base', '0'],
      ['--router-port', '0', '--dashboard-port', '0', '--registry-port', '0'],
      TRAFFIC_ARGS[s.traffic],
    ),
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += String(d);
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  while (!CONTROL_ROW.test(stdout)) {
    if (child.exitCode !== null) throw new Error(`weft dev exited (${child.exitCode}): ${stdout}`);
    await sleep(20);
  }
  const tableS = (performance.now() - started) / 1000;
  return { child, tableS, cpuS: (processCpuMs(child.pid!) ?? 0) / 1000 };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** CPU seconds of each thread of a live process (`/proc/<pid>/task/<tid>/stat`). */
function threadCpu(pid: number): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / CLK_TCK);
    } catch {
      // The thread ended.
    }
  }
  return cpu;
}

/** Resident memory now and at its peak (`VmRSS`, `VmHWM`), MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (name: string) =>
    Math.round(Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024);
  return { rss: mb('VmRSS'), peak: mb('VmHWM') };
}

/** Cores used over `seconds` of a live process: in all, by its main thread and by the others. */
async function idle(pid: number, seconds: number) {
  const before = threadCpu(pid);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const after = threadCpu(pid);
  const wall = (performance.now() - t0) / 1000;
  let main = 0;
  let others = 0;
  for (const [tid, cpu] of after) {
    const used = cpu - (before.get(tid) ?? 0);
    if (tid === pid) main += used;
    else others += used;
  }
  const round = (n: number) => Math.round((n / wall) * 1000) / 1000;
  return { cores: round(main + others), main_thread: round(main), other_threads: round(others) };
}

const r1 = (n: number) => Math.round(n * 10) / 10;

export async function runStart(root: string, s: StartSettings) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-dev-start-'));
  try {
    const cold = await start(root, dir, s);
    let idleFigures: Awaited<ReturnType<typeof idle>>;
    let rss: { rss: number; peak: number };
    try {
      await sleep(s.settleSeconds * 1000);
      idleFigures = await idle(cold.child.pid!, s.idleSeconds);
      rss = memory(cold.child.pid!);
    } finally {
      await stop(cold.child);
    }
    const warm = await start(root, dir, s);
    await stop(warm.child);
    return {
      traffic: s.traffic,
      cold_start: { table_s: r1(cold.tableS), cpu_s: r1(cold.cpuS) },
      warm_start: { table_s: r1(warm.tableS), cpu_s: r1(warm.cpuS) },
      idle: {
        seconds: s.idleSeconds,
        after_table_s: s.settleSeconds,
        ...idleFigures,
        rss_mb: rss.rss,
        peak_rss_mb: rss.peak,
      },
      ...(s.profile ? { where: await profiled(root, s) } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A cold start and the idle stack again, profiled: CPU seconds per part up to the table, cores idle. */
async function profiled(root: string, s: StartSettings) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-dev-profile-'));
  try {
    const run = await start(root, dir, s, ['--cpu-prof', '--cpu-prof-dir', join(dir, 'profiles')]);
    const from = run.tableS + s.settleSeconds;
    try {
      await sleep((s.settleSeconds + s.idleSeconds) * 1000);
    } finally {
      await stop(run.child);
    }
    const [startS, idleS] = cpuByPart(join(dir, 'profiles'), [
      { from: 0, to: run.tableS },
      { from, to: from + s.idleSeconds },
    ]);
    const cores = Object.fromEntries(
      Object.entries(idleS!).map(([part, seconds]) => [
        part,
        Math.round((seconds / s.idleSeconds) * 1000) / 1000,
      ]),
    );
    return {
      note: 'a profiled run (slower than the runs above): CPU seconds per part up to the table, cores per part idle',
      table_s: r1(run.tableS),
      start_cpu_s: startS,
      idle_cores: cores,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
