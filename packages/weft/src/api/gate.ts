import { BusyError } from '../common/errors.js';
import type { Db } from '../store/db.js';

/**
 * Admission to a scarce resource (the store's connections, the node's REST). At most `slots` calls
 * run at once; the others wait in order, at most `maxWaitMs` and at most `maxWaiting` of them, and
 * then fail with `BusyError` (a 503 with `Retry-After`) instead of queueing without end.
 */
export interface Gate {
  run<T>(fn: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export interface GateOptions {
  slots: number;
  maxWaitMs: number;
  maxWaiting: number;
  /** What a slot is, for the busy message: `a store connection`. */
  resource: string;
}

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

const busy = (why: string) =>
  new BusyError(`the API is busy: ${why}; retry in a moment (see Retry-After)`, 1);

export function createGate(options: GateOptions): Gate {
  const queue: Waiter[] = [];
  let active = 0;

  const release = () => {
    const next = queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.admit();
    } else {
      active -= 1;
    }
  };

  const acquire = (): Promise<void> => {
    if (active < options.slots) {
      active += 1;
      return Promise.resolve();
    }
    if (queue.length >= options.maxWaiting) {
      return Promise.reject(busy(`${queue.length} requests already wait for ${options.resource}`));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        // The slot passes from the releasing statement to this one: `active` stays as it is.
        admit: resolve,
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          reject(busy(`${options.resource} did not come free within ${options.maxWaitMs} ms`));
        }, options.maxWaitMs),
      };
      queue.push(waiter);
    });
  };

  return {
    async run(fn) {
      await acquire();
      try {
        return await fn();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}

/**
 * The same store, every statement (or transaction) admitted through `gate`. The API's reads take
 * fewer slots than the pool has connections, so `/status` always finds one.
 */
export function gatedDb(db: Db, gate: Gate): Db {
  return {
    backend: db.backend,
    schema: db.schema,
    connections: db.connections,
    query: <T>(sql: string, params?: readonly unknown[]) => gate.run(() => db.query<T>(sql, params)),
    exec: (sql) => gate.run(() => db.exec(sql)),
    transaction: <T>(fn: (tx: Db) => Promise<T>) => gate.run(() => db.transaction(fn)),
    withSchema: (name) => db.withSchema(name),
    close: () => db.close(),
  };
}
