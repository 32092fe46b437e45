import type { Logger } from '../../common/logger.js';
import type { Chain } from '../chain.js';
import type { DevAccount } from '../keys.js';
import { createOpinitExecutor, type OpinitExecutor } from './opinit-executor.js';
import { startExecutorHttpServer } from './opinit-executor-http.js';
import { createOutputSubmitter, type OutputSubmitter } from './opinit-output-submitter.js';

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
  /** How often both relayers look at the chains. */
  pollMs?: number;
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
  /** One poll of both relayers (what the timer does). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

/** The OPinit relayers of one bridge, polling on a timer, with the executor's HTTP surface on loopback. */
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
  let running: Promise<void> = Promise.resolve();
  const poll = () => {
    // One poll at a time: a slow one is not overtaken by the next tick.
    running = running
      .then(async () => {
        await executor.poll();
        await submitter.poll();
      })
      .catch((err: unknown) =>
        logger.error({ err, bridgeId: String(options.bridgeId) }, 'OPinit relay failed'),
      );
    return running;
  };
  const timer = setInterval(poll, options.pollMs ?? 250);
  timer.unref();
  return {
    executor,
    submitter,
    executorUrl: http.url,
    poll,
    async close() {
      clearInterval(timer);
      await running;
      await http.close();
    },
  };
}
