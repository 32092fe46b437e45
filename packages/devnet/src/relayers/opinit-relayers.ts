import type { Logger } from 'weft/common/logger.js';
import type { Chain } from '../chain.js';
import type { DevAccount } from '../keys.js';
import { createOpinitExecutor, type OpinitExecutor } from './opinit-executor.js';
import { startExecutorHttpServer } from './opinit-executor-http.js';
import { createOutputSubmitter, type OutputSubmitter } from './opinit-output-submitter.js';

/** Longest wait a Node timer takes (a longer one fires at once); a longer wait is woken and set again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface OpinitRelayersOptions {
  bridgeId: bigint;
  l1: Chain;
  l2: Chain;
  /** A bridge executor of the rollup (opchild params). */
  executor: DevAccount;
  /** The bridge's proposer on the L1. */
  proposer: DevAccount;
  outputIntervalMs: number;
  executorDelayMs?: number;
  submitterDelayMs?: number;
  /** How soon a relay that did not go through is tried again. */
  retryMs?: number;
  host?: string;
  /** Port of the executor's HTTP surface; 0 or absent picks a free one. */
  port?: number;
  logger: Logger;
}

export interface OpinitRelayers {
  executor: OpinitExecutor;
  submitter: OutputSubmitter;
  /** The executor's HTTP surface (`executor_uri` of the registry). */
  executorUrl: string;
  /** One poll of both relayers: after each network step, and when a wait ends between steps. */
  poll(): Promise<void>;
  /** Polls now (the control surface changed a relayer: a resume or a shorter wait takes effect at once). */
  wake(): void;
  close(): Promise<void>;
}

/**
 * The OPinit relayers of one bridge, polled after each network step and woken when a wait ends, with the
 * executor's HTTP surface on loopback.
 */
export async function startOpinitRelayers(options: OpinitRelayersOptions): Promise<OpinitRelayers> {
  const { logger } = options;
  const executor = createOpinitExecutor({
    bridgeId: options.bridgeId,
    l1: options.l1,
    l2: options.l2,
    executor: options.executor,
    delayMs: options.executorDelayMs,
    logger,
  });
  const submitter = createOutputSubmitter({
    l1: options.l1,
    l2: options.l2,
    executor,
    proposer: options.proposer,
    intervalMs: options.outputIntervalMs,
    delayMs: options.submitterDelayMs,
    logger,
  });
  const http = await startExecutorHttpServer(executor, { host: options.host, port: options.port });
  const retryMs = options.retryMs ?? 250;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // Between steps nothing moves but the clock: one timer wakes the relayers when the next wait (a
  // deposit's delay, the output interval, a proposal's delay) ends, and none runs while nothing waits.
  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    const waits = [executor.dueAt(), submitter.dueAt()].filter((t): t is number => t !== undefined);
    if (closed || waits.length === 0) return;
    const wait = Math.min(...waits) - Date.now();
    // Still due after a poll: its relay did not go through, so it is tried again a little later.
    timer = setTimeout(poll, wait > 0 ? Math.min(wait, MAX_TIMER_MS) : retryMs);
    timer.unref();
  };
  const poll = () => {
    // One poll at a time: a slow one is not overtaken by the next.
    running = running
      .then(async () => {
        await executor.poll();
        await submitter.poll();
      })
      .catch((err: unknown) =>
        logger.error({ err, bridgeId: String(options.bridgeId) }, 'OPinit relay failed'),
      )
      .finally(schedule);
    return running;
  };
  return {
    executor,
    submitter,
    executorUrl: http.url,
    poll,
    wake: () => void poll(),
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
      await http.close();
    },
  };
}
