import type { Logger } from './logger.js';

export interface Shutdown {
  /** Aborted when shutdown starts; long-running loops watch it. */
  readonly signal: AbortSignal;
  /** Registers a callback; callbacks run in reverse order of registration. */
  add(callback: () => unknown | Promise<unknown>): void;
  /** Runs every callback once; later calls return the same promise. */
  kill(reason?: string): Promise<void>;
  isKilled(): boolean;
}

export function createShutdown(logger?: Logger): Shutdown {
  const controller = new AbortController();
  const callbacks: Array<() => unknown | Promise<unknown>> = [];
  let done: Promise<void> | undefined;
  return {
    signal: controller.signal,
    add(callback) {
      callbacks.push(callback);
    },
    kill(reason = 'shutdown') {
      if (done) return done;
      controller.abort(reason);
      done = (async () => {
        for (const callback of callbacks.reverse()) {
          try {
            await callback();
          } catch (err) {
            logger?.error({ err }, 'shutdown callback failed');
          }
        }
      })();
      return done;
    },
    isKilled: () => controller.signal.aborted,
  };
}

/** SIGINT/SIGTERM start a graceful shutdown; a second signal exits at once. */
export function onProcessSignals(shutdown: Shutdown, logger: Logger): void {
  let signals = 0;
  const handler = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) process.exit(130);
    logger.info({ signal }, 'shutting down');
    void shutdown.kill(signal).then(() => process.exit(0));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
