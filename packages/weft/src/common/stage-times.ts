import { Counter } from 'prom-client';
import type { Registry } from './metrics.js';

/**
 * Cumulative time the indexer spends in each stage of its pipeline, kept only when asked
 * (`WEFT_STAGE_TIMES=1`, which `npm run bench -- ingest` sets) and then served on the metrics
 * endpoint. Off, every hook is one branch. Stages run concurrently (many heights are fetched while a
 * batch is written), so wall times are sums over heights and batches, not shares of the elapsed time.
 *
 * - `fetch`: wall time from a height's first node request to its last answer (block, block results,
 *   txs, receipts, traces, metadata calls), JSON parsing included (and the decoding of the traces and
 *   of the metadata questions, which happen between the answers); attempts that fail are left out.
 * - `parse`: reading node answers (`JSON.parse` and the checks of the answer), synchronous: its CPU
 *   is attributable.
 * - `decode`: turning a height's documents into rows-to-be (decoder, ERC20 deltas, trace flattening),
 *   synchronous.
 * - `build`: the block writer's own JavaScript between its statements (dictionaries, row arrays, the
 *   array literals and JSON text of the parameters), synchronous segments.
 * - `write`: the rest of a batch write: statements in flight (driver, network, the store), the
 *   transaction's begin, lock and commit. Wall only: its CPU runs in callbacks (PostgreSQL: in the
 *   server's backends; PGlite: in this process, between other work).
 *
 * `parse`, `decode` and `build` are synchronous sections of the indexer's one JavaScript thread, so
 * their wall time is that thread's CPU time for them (on a machine that is not oversubscribed; the
 * garbage collector's helper threads are not in it). Reading the process's CPU counters around each
 * section instead (`getrusage`, some 200 calls a block) cost more than half a millisecond a block,
 * which is why it is not done.
 */

export type Stage = 'fetch' | 'parse' | 'decode' | 'build' | 'write';
export const STAGES: readonly Stage[] = ['fetch', 'parse', 'decode', 'build', 'write'];

interface Totals {
  /** Milliseconds. */
  wall: Record<Stage, number>;
}

let totals: Totals | undefined;

const zero = () => Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;

/** Starts keeping stage times (once per process) and serves them on `registry`. */
export function enableStageTimes(registry?: Registry): void {
  if (totals) return;
  const kept: Totals = { wall: zero() };
  totals = kept;
  if (!registry) return;
  const registers = [registry];
  new Counter({
    name: 'weft_indexer_stage_wall_seconds_total',
    help: 'wall time spent in a pipeline stage, summed over heights and batches (WEFT_STAGE_TIMES=1)',
    labelNames: ['stage'] as const,
    registers,
    collect() {
      this.reset();
      for (const stage of STAGES) this.inc({ stage }, kept.wall[stage] / 1000);
    },
  });
}

export const stageTimesOn = (): boolean => totals !== undefined;

/** The totals so far (wall in ms), or undefined when off. */
export function stageTimes(): Totals | undefined {
  return totals && { wall: { ...totals.wall } };
}

export function addStageTime(stage: Stage, wallMs: number): void {
  if (totals) totals.wall[stage] += wallMs;
}

/** Runs the synchronous `fn(arg)`, adding its time to `stage` when stage times are on. */
export function timed<A, R>(stage: Stage, fn: (arg: A) => R, arg: A): R {
  if (!totals) return fn(arg);
  const wall = performance.now();
  try {
    return fn(arg);
  } finally {
    totals.wall[stage] += performance.now() - wall;
  }
}

/** A start mark for `stageEnd` (0 when off). */
export const stageStart = (): number => (totals ? performance.now() : 0);

/** Adds the wall time since `started` to `stage`. */
export function stageEnd(stage: Stage, started: number): void {
  if (totals) totals.wall[stage] += performance.now() - started;
}
