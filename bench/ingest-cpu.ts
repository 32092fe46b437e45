import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * CPU figures of `npm run bench -- ingest`: the indexer process and the PostgreSQL backends that serve
 * its database, read from `/proc/<pid>/stat` (utime + stime, in clock ticks), and the indexer's own
 * per-stage times (served on its metrics endpoint when `WEFT_STAGE_TIMES=1`, see
 * packages/weft/src/common/stage-times.ts).
 */

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** Ticks per second of the times in `/proc/<pid>/stat`. */
export const CLK_TCK = clockTicks();

/** User + system CPU of a live process, in ms; null once it is gone. */
export function processCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
  // Field 3 (state) is at index 0, so utime (14) and stime (15) are at 11 and 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

export interface BackendCpu {
  /** Client backends of the database (the indexer's connections), ms, over the run. */
  clientMs: number;
  /** Autovacuum workers on the database during the run, ms. */
  autovacuumMs: number;
  /** Distinct backend processes seen (the pool may reconnect). */
  backends: number;
}

export interface BackendSampler {
  /** Reads the backends' CPU now; the last reading of each process before it ends is what counts. */
  sample(): Promise<void>;
  result(): BackendCpu;
  close(): Promise<void>;
}

/** The server processes connected to `database` (client backends, autovacuum workers, …). */
export async function databaseBackends(
  client: pg.Client,
  database: string,
): Promise<Array<{ pid: number; backend_type: string }>> {
  const { rows } = await client.query<{ pid: number; backend_type: string }>(
    'SELECT pid, backend_type FROM pg_stat_activity WHERE datname = $1',
    [database],
  );
  return rows;
}

/**
 * Samples the CPU of the backends connected to `database`. Backends already there when it starts
 * (the bench's own connection, which ran the migrations) are left out.
 */
export async function backendCpuSampler(adminUrl: string, database: string): Promise<BackendSampler> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const list = () => databaseBackends(client, database);
  const excluded = new Set((await list()).map((r) => r.pid));
  const last = new Map<number, { ms: number; autovacuum: boolean }>();
  return {
    async sample() {
      for (const row of await list()) {
        if (excluded.has(row.pid)) continue;
        const ms = processCpuMs(row.pid);
        if (ms !== null) last.set(row.pid, { ms, autovacuum: row.backend_type === 'autovacuum worker' });
      }
    },
    result() {
      let clientMs = 0;
      let autovacuumMs = 0;
      for (const { ms, autovacuum } of last.values()) {
        if (autovacuum) autovacuumMs += ms;
        else clientMs += ms;
      }
      return { clientMs, autovacuumMs, backends: last.size };
    },
    close: () => client.end(),
  };
}

/**
 * Runs `each` over heights 1 to `blocks`, `concurrency` heights at a time: the seconds it took and this
 * process's CPU over it, in ms.
 */
export async function acrossHeights(
  blocks: number,
  concurrency: number,
  each: (height: number) => Promise<unknown>,
): Promise<{ seconds: number; cpuMs: number }> {
  let next = 1;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next <= blocks) await each(next++);
    }),
  );
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

export const perBlock = (ms: number, blocks: number) => Math.round((ms / blocks) * 1000) / 1000;

/**
 * The stage figures from the indexer's metrics, per block. `cpuMs` is the indexer process's CPU over
 * the whole run; what no stage accounts for is reported as `unattributed_cpu_ms_per_block`.
 */
export function stageReport(metrics: Map<string, number>, blocks: number, cpuMs: number | null) {
  const seconds = (stage: string) => metrics.get(`weft_indexer_stage_wall_seconds_total{stage="${stage}"}`);
  const wall = (stage: string) => perBlock((seconds(stage) ?? Number.NaN) * 1000, blocks);
  if (seconds('fetch') === undefined) return null;
  // Synchronous stages: their wall time is the JavaScript thread's CPU time for them.
  const attributed = ['parse', 'decode', 'build'].reduce((sum, s) => sum + (seconds(s) ?? 0) * 1000, 0);
  return {
    fetch: { wall_ms_per_block: wall('fetch'), cpu_ms_per_block: null },
    parse: { wall_ms_per_block: wall('parse'), cpu_ms_per_block: wall('parse') },
    decode: { wall_ms_per_block: wall('decode'), cpu_ms_per_block: wall('decode') },
    build: { wall_ms_per_block: wall('build'), cpu_ms_per_block: wall('build') },
    write: { wall_ms_per_block: wall('write'), cpu_ms_per_block: null },
    unattributed_cpu_ms_per_block: cpuMs === null ? null : perBlock(cpuMs - attributed, blocks),
  };
}

/** Peak resident set of a live process (Linux `VmHWM`), in MB. */
export function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The indexer's heights and stage times from its metrics endpoint. */
export async function metric(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url)).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(weft_indexer_(?:height|extension_height|stage_\w+)(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) values.set(m[1]!, Number(m[2]));
  }
  return values;
}

/** The CPU goals, ms per block: the indexer process, the PostgreSQL backends. */
export const CPU_GOALS = { indexer: 3, store: 2 };

/** The CPU fields of one backend's result (see the header of bench/ingest.ts). */
export function costReport(run: {
  backend: 'postgres' | 'pglite';
  blocks: number;
  /** The indexer's CPU at the end of the run, and when the first block was written. */
  cpuMs: number | null;
  cpuAtFirstBlock: number | undefined;
  backends: BackendCpu | undefined;
  metrics: Map<string, number>;
}) {
  const { blocks, cpuMs, cpuAtFirstBlock, backends } = run;
  return {
    indexer_cpu_ms_per_block: cpuMs === null ? null : perBlock(cpuMs, blocks),
    indexer_cpu_ms_per_block_after_first_block:
      cpuMs === null || cpuAtFirstBlock === undefined ? null : perBlock(cpuMs - cpuAtFirstBlock, blocks),
    indexer_cpu_goal_ms_per_block: CPU_GOALS.indexer,
    indexer_cpu_ok: cpuMs === null ? null : cpuMs / blocks <= CPU_GOALS.indexer,
    store_cpu_ms_per_block: backends ? perBlock(backends.clientMs, blocks) : null,
    store_autovacuum_cpu_ms_per_block: backends ? perBlock(backends.autovacuumMs, blocks) : null,
    store_backends: backends ? backends.backends : null,
    store_cpu_in: run.backend === 'postgres' ? 'postgresql backends' : 'the indexer process (PGlite)',
    stages: stageReport(run.metrics, blocks, cpuMs),
  };
}
