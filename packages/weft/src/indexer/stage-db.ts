import { addStageTime, stageTimes } from '../common/stage-times.js';
import type { Db } from '../store/db.js';

/**
 * The store as the block writer sees it when stage times are on: a transaction opened while
 * `capture` runs (a block batch's) times its own JavaScript between statements as `build`, wall
 * and CPU, from the start of the transaction's function to its end. Other transactions (the
 * extensions' writes) and plain queries pass through untouched. One batch is written at a time,
 * so a transaction's segments are not mixed with another's.
 */
export interface StageTimedDb {
  db: Db;
  /**
   * Runs a batch write: transactions `fn` opens synchronously (before its first await) time their
   * `build` segments, and the rest of the batch's wall time is added to `write`.
   */
  batch<T>(fn: () => Promise<T>): Promise<T>;
}

interface Flow {
  /** When the transaction's own code last got control back (after a statement). */
  wall: number;
}

function resume(flow: Flow): void {
  flow.wall = performance.now();
}

/** Ends a segment of the writer's own code: it ran from the last resume until now. */
function pause(flow: Flow): void {
  addStageTime('build', performance.now() - flow.wall);
}

function timedTx(tx: Db, flow: Flow): Db {
  const around = async <T>(run: () => Promise<T>): Promise<T> => {
    pause(flow);
    try {
      return await run();
    } finally {
      resume(flow);
    }
  };
  return {
    backend: tx.backend,
    schema: tx.schema,
    connections: tx.connections,
    query: (sql, params) => around(() => tx.query(sql, params)),
    exec: (sql) => around(() => tx.exec(sql)),
    // A nested call joins the outer transaction: same flow.
    transaction: (fn) => tx.transaction((inner) => fn(timedTx(inner, flow))),
    withSchema: (name) => tx.withSchema(name),
    close: () => tx.close(),
  };
}

export function stageTimedDb(db: Db): StageTimedDb {
  let capturing = false;
  const wrapped: Db = {
    backend: db.backend,
    schema: db.schema,
    connections: db.connections,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction(fn) {
      if (!capturing) return db.transaction(fn);
      return db.transaction(async (tx) => {
        const flow: Flow = { wall: 0 };
        resume(flow);
        try {
          return await fn(timedTx(tx, flow));
        } finally {
          pause(flow);
        }
      });
    },
    withSchema: (name) => db.withSchema(name),
    close: () => db.close(),
  };
  return {
    db: wrapped,
    async batch<T>(fn: () => Promise<T>): Promise<T> {
      const started = performance.now();
      const buildBefore = stageTimes()?.wall.build ?? 0;
      let running: Promise<T>;
      capturing = true;
      try {
        running = fn();
      } finally {
        capturing = false;
      }
      try {
        return await running;
      } finally {
        const build = (stageTimes()?.wall.build ?? 0) - buildBefore;
        addStageTime('write', performance.now() - started - build);
      }
    },
  };
}
