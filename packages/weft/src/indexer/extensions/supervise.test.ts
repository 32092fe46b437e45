import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '../../common/metrics.js';
import { createIndexerMetrics } from '../metrics.js';
import { captureRecords } from '../test-support/logger.js';
import { superviseExtension } from './supervise.js';

const BACKOFF = { baseMs: 5, maxMs: 20 };

function setup() {
  const metrics = createIndexerMetrics(createMetricsRegistry());
  const { logger, records } = captureRecords('info');
  const controller = new AbortController();
  const failures = async () => (await metrics.extensionFailures.get()).values[0]?.value ?? 0;
  const options = {
    label: 'rich_list',
    logger,
    failures: metrics.extensionFailures,
    signal: controller.signal,
    backoff: BACKOFF,
  };
  return { options, records, controller, failures };
}

describe('an extension under its supervisor', () => {
  it('starts again after each failure, pausing longer each time up to the cap, until it runs', async () => {
    const { options, records, failures } = setup();
    let runs = 0;
    const supervisor = superviseExtension(
      {
        async run() {
          runs += 1;
          if (runs <= 5) throw new Error(`refused ${runs}`);
        },
      },
      options,
    );
    await supervisor.run();
    expect(runs).toBe(6);
    expect(await failures()).toBe(5);
    const errors = records.filter((r) => r.level === 50);
    expect(errors.map((r) => [r.attempt, r.retryInMs, r.err])).toEqual([
      [1, 5, 'refused 1'],
      [2, 10, 'refused 2'],
      [3, 20, 'refused 3'],
      [4, 20, 'refused 4'],
      [5, 20, 'refused 5'],
    ]);
  });

  it('starts the pause over once the extension writes, and says so', async () => {
    const { options, records } = setup();
    let runs = 0;
    let supervisor: ReturnType<typeof superviseExtension>;
    supervisor = superviseExtension(
      {
        async run() {
          runs += 1;
          // Fails twice, writes a height, fails again, then runs.
          if (runs === 3) supervisor.written(42);
          if (runs <= 3) throw new Error('refused');
        },
      },
      options,
    );
    await supervisor.run();
    expect(records.filter((r) => r.level === 50).map((r) => r.retryInMs)).toEqual([5, 10, 5]);
    expect(records.filter((r) => r.msg === 'extension writes again')).toEqual([
      expect.objectContaining({ height: 42, failures: 2 }),
    ]);
  });

  it('counts a failed initialize and pauses before the first run', async () => {
    const { options, records, failures } = setup();
    const order: string[] = [];
    const supervisor = superviseExtension(
      {
        async initialize() {
          order.push('initialize');
          throw new Error('snapshot refused');
        },
        async run() {
          order.push('run');
        },
      },
      options,
    );
    await supervisor.initialize();
    expect(await failures()).toBe(1);
    expect(records.filter((r) => r.level === 50)).toEqual([
      expect.objectContaining({ err: 'snapshot refused', retryInMs: 5 }),
    ]);
    await supervisor.run();
    expect(order).toEqual(['initialize', 'run']);
  });

  it('ends quietly on the abort, during a pause or a failing run', async () => {
    const { options, records, controller, failures } = setup();
    const supervisor = superviseExtension(
      {
        async run() {
          throw new Error('refused');
        },
      },
      { ...options, backoff: { baseMs: 60_000, maxMs: 60_000 } },
    );
    const running = supervisor.run();
    setTimeout(() => controller.abort(), 20);
    await running;
    expect(await failures()).toBe(1);
    expect(records.filter((r) => r.level === 50)).toHaveLength(1);
  });
});
