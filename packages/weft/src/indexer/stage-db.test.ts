import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '../common/metrics.js';
import { enableStageTimes, stageTimes, timed } from '../common/stage-times.js';
import { type Db, openDb } from '../store/db.js';
import { stageTimedDb } from './stage-db.js';

/** Keeps the CPU busy for about `ms` (a synchronous section). */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('stage times', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await db.close();
  });

  it('are off until enabled: the hooks only run their function', () => {
    expect(stageTimes()).toBeUndefined();
    expect(timed('decode', (n: number) => n + 1, 1)).toBe(2);
    expect(stageTimes()).toBeUndefined();
  });

  it('time a batch write: the code between statements as build, the rest as write', async () => {
    const registry = createMetricsRegistry();
    enableStageTimes(registry);
    const timedDb = stageTimedDb(db);
    const statement = 'SELECT pg_sleep(0.03)';
    await timedDb.batch(() =>
      timedDb.db.transaction(async (tx) => {
        spin(20);
        await tx.query(statement);
        spin(20);
        await tx.query(statement);
        spin(20);
      }),
    );
    const after = stageTimes()!;
    expect(after.wall.build).toBeGreaterThanOrEqual(60);
    // The statements' 60 ms must not count as build: below 60 + 60, with room for a loaded machine (a CI
    // run beside the other test files read 101 ms).
    expect(after.wall.build).toBeLessThan(60 + 55);
    expect(after.wall.write).toBeGreaterThanOrEqual(55);

    // A transaction opened outside a batch (an extension's write) is not timed.
    await timedDb.db.transaction(async (tx) => {
      spin(20);
      await tx.query('SELECT 1');
    });
    expect(stageTimes()!.wall.build).toBe(after.wall.build);

    expect(timed('decode', spin, 10)).toBeUndefined();
    expect(stageTimes()!.wall.decode).toBeGreaterThanOrEqual(10);

    const text = await registry.metrics();
    const build = /^weft_indexer_stage_wall_seconds_total\{stage="build"\} (\S+)$/m.exec(text);
    expect(Number(build?.[1])).toBeCloseTo(after.wall.build / 1000, 6);
    expect(text).toMatch(/^weft_indexer_stage_wall_seconds_total\{stage="decode"\} \S+$/m);
  });
});
