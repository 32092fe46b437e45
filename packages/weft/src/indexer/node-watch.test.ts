import { describe, expect, it } from 'vitest';
import { createNodeWatch } from './node-watch.js';
import { captureRecords } from './test-support/logger.js';

describe('node watch', () => {
  it('tells once that the node is down, only after a run of failures, and once that it is back', () => {
    let clock = 0;
    const { logger, records } = captureRecords();
    const watch = createNodeWatch({ logger, failuresBeforeDown: 3, quietMs: 1000, now: () => clock });
    // Scattered failures between successes stay quiet.
    for (let i = 0; i < 10; i += 1) {
      watch.troubled(new Error('503'));
      watch.succeeded();
      clock += 500;
    }
    expect(records.filter((r) => r.level >= 40)).toHaveLength(0);
    for (let i = 0; i < 20; i += 1) {
      clock += 200;
      watch.troubled(new Error('ECONNREFUSED'));
    }
    expect(watch.state).toBe('down');
    watch.succeeded();
    watch.succeeded();
    expect(records.map((r) => r.msg).filter((m) => !m.includes('retrying'))).toEqual([
      'node is not answering; waiting for it',
      'node answers again; resuming',
    ]);
  });

  it('tells once that the node is behind, and when it has caught up', () => {
    const { logger, records } = captureRecords();
    const watch = createNodeWatch({ logger });
    watch.servedAgain();
    watch.behind(10, 20);
    watch.behind(11, 20);
    watch.caughtUp();
    watch.caughtUp();
    expect(records.map((r) => r.msg)).toEqual([
      'node is behind the database (node at 10, database at 20); waiting for it to catch up',
      'node has caught up with the database; resuming',
    ]);
  });
});
