import { MsgProposeOutput } from '@initia/opinit.proto/opinit/ophost/v1/tx.js';
import type { Logger } from 'weft/common/logger.js';
import type { Chain } from '../chain.js';
import type { DevAccount } from '../keys.js';
import { OPHOST_TYPE_URLS } from '../opinit/host.js';
import { hostState } from '../opinit/host-state.js';
import type { OpinitExecutor } from './opinit-executor.js';
import { createDelayQueue, type RelayerControl } from './opinit-schedule.js';
import { createRelayerTxSender } from './opinit-signer.js';
import type { OutputTree } from './opinit-withdrawals.js';

/** The output root version opinit-bots writes. */
export const OUTPUT_VERSION = 1;

export interface OutputSubmitterOptions {
  l1: Chain;
  l2: Chain;
  /** Its withdrawal store holds the trees; its scan tells how far the rollup is known. */
  executor: OpinitExecutor;
  /** The bridge's proposer on the L1. */
  proposer: DevAccount;
  /** Wall time between two outputs. */
  intervalMs: number;
  delayMs?: number;
  now?: () => number;
  logger: Logger;
}

export interface OutputSubmitter extends RelayerControl {
  /** Cuts an output when the interval has passed and proposes those whose delay has passed. */
  poll(): Promise<void>;
  setInterval(ms: number): void;
  /** When the next output is due to be cut or proposed (wall time); undefined when nothing waits. */
  dueAt(): number | undefined;
  /** Outputs cut so far, oldest first. */
  readonly outputs: readonly OutputTree[];
}

/**
 * The output submitter: every interval it commits the rollup's withdrawals up to its latest block to a
 * tree, and proposes `sha3(version ‖ storage_root ‖ block hash)` to the L1 as the next output.
 */
export function createOutputSubmitter(options: OutputSubmitterOptions): OutputSubmitter {
  const { l1, l2, executor, logger } = options;
  const now = options.now ?? Date.now;
  const bridgeId = executor.bridgeId;
  const queue = createDelayQueue<OutputTree>({ delayMs: options.delayMs, now });
  const sender = createRelayerTxSender(l1, options.proposer);
  const outputs: OutputTree[] = [];
  let intervalMs = options.intervalMs;
  let lastCutAt = now();
  let lastL2Height = 0;
  let nextIndex = 0n;

  const cut = () => {
    const height = executor.l2Height;
    if (height <= lastL2Height || now() - lastCutAt < intervalMs) return;
    const record = l2.getBlock(height);
    if (!record) return;
    const committed = hostState.nextOutputIndex(l1.state(), bridgeId);
    const index = committed > nextIndex ? committed : nextIndex;
    const blockHash = Buffer.from((record.block.block_id as { hash: string }).hash, 'hex');
    const output = executor.withdrawals.cut({
      outputIndex: index,
      l2BlockNumber: height,
      blockHash,
      version: OUTPUT_VERSION,
    });
    outputs.push(output);
    queue.push(output);
    nextIndex = index + 1n;
    lastL2Height = height;
    lastCutAt = now();
  };

  const propose = async () => {
    for (const output of queue.takeDue()) {
      const msg = MsgProposeOutput.fromPartial({
        proposer: options.proposer.address,
        bridgeId,
        outputIndex: output.outputIndex,
        l2BlockNumber: BigInt(output.l2BlockNumber),
        outputRoot: output.outputRoot,
      });
      const result = await sender.send(
        [{ typeUrl: OPHOST_TYPE_URLS.proposeOutput, value: MsgProposeOutput.encode(msg).finish() }],
        300_000n,
      );
      if (result.code !== 0) {
        logger.warn({ bridgeId: String(bridgeId), log: result.log }, 'output proposal refused');
        executor.withdrawals.uncut(output.outputIndex);
        outputs.splice(outputs.indexOf(output), 1);
        nextIndex = output.outputIndex;
        lastL2Height = 0;
      }
    }
  };

  return {
    async poll() {
      if (queue.paused) return;
      cut();
      await propose();
    },
    setInterval(ms) {
      intervalMs = Math.max(0, ms);
    },
    dueAt() {
      if (queue.paused) return undefined;
      const proposal = queue.dueAt();
      const cutAt = executor.l2Height > lastL2Height ? lastCutAt + intervalMs : undefined;
      if (proposal === undefined) return cutAt;
      return cutAt === undefined ? proposal : Math.min(proposal, cutAt);
    },
    outputs,
    pause: queue.pause,
    resume: queue.resume,
    setDelay: queue.setDelay,
    get paused() {
      return queue.paused;
    },
    get delayMs() {
      return queue.delayMs;
    },
  };
}
