import { MsgFinalizeTokenDeposit } from '@initia/opinit.proto/opinit/opchild/v1/tx.js';
import type { Logger } from 'weft/common/logger.js';
import { depositInitiated, withdrawalInitiated } from 'weft/protocol/opinit-events.js';
import type { Chain } from '../chain.js';
import type { DevAccount } from '../keys.js';
import { OPCHILD_TYPE_URLS } from '../opinit/child.js';
import { childState } from '../opinit/child-state.js';
import { createDelayQueue, eventsOfType, type RelayerControl } from './opinit-schedule.js';
import { createRelayerTxSender } from './opinit-signer.js';
import { createWithdrawalStore, type WithdrawalStore } from './opinit-withdrawals.js';

export interface OpinitExecutorOptions {
  bridgeId: bigint;
  l1: Chain;
  l2: Chain;
  /** A bridge executor of the rollup (opchild params), funded there. */
  executor: DevAccount;
  delayMs?: number;
  /** Gas of one `MsgFinalizeTokenDeposit`, hook included. */
  gasPerDeposit?: bigint;
  now?: () => number;
  logger: Logger;
}

export interface OpinitExecutor extends RelayerControl {
  readonly bridgeId: bigint;
  readonly withdrawals: WithdrawalStore;
  /** Reads new blocks of both chains and relays the deposits whose delay has passed. */
  poll(): Promise<void>;
  /** Highest rollup block whose withdrawals are recorded. */
  readonly l2Height: number;
  /** When the next deposit's delay ends (wall time); undefined when none waits or paused. */
  dueAt(): number | undefined;
  /** Deposits seen on the L1 and not yet finalized on the rollup. */
  readonly pendingDeposits: number;
}

/**
 * The OPinit executor (opinit-bots `executor`): relays each L1 `initiate_token_deposit` of its bridge
 * to the rollup as `MsgFinalizeTokenDeposit`, and records the rollup's withdrawals for the output
 * submitter's trees and the proofs its HTTP endpoints serve.
 */
export function createOpinitExecutor(options: OpinitExecutorOptions): OpinitExecutor {
  const { l1, l2, bridgeId, logger } = options;
  const queue = createDelayQueue<MsgFinalizeTokenDeposit>({ delayMs: options.delayMs, now: options.now });
  const sender = createRelayerTxSender(l2, options.executor);
  const withdrawals = createWithdrawalStore(bridgeId);
  const gasPerDeposit = options.gasPerDeposit ?? 4_000_000n;
  let l1Height = 0;
  let l2Height = 0;

  const scanL1 = () => {
    for (; l1Height < l1.latestHeight(); ) {
      const record = l1.getBlock(l1Height + 1);
      l1Height += 1;
      if (!record) continue;
      for (const { attributes } of eventsOfType(record, 'initiate_token_deposit')) {
        const deposit = depositInitiated(attributes);
        if (deposit.bridgeId !== String(bridgeId)) continue;
        queue.push(
          MsgFinalizeTokenDeposit.fromPartial({
            sender: options.executor.address,
            from: deposit.from,
            to: deposit.to,
            amount: { denom: deposit.l2Denom, amount: deposit.amount },
            sequence: BigInt(deposit.l1Sequence),
            height: BigInt(record.height),
            baseDenom: deposit.l1Denom,
            data: Buffer.from(deposit.data, 'hex'),
          }),
        );
      }
    }
  };

  const scanL2 = () => {
    for (; l2Height < l2.latestHeight(); ) {
      const record = l2.getBlock(l2Height + 1);
      l2Height += 1;
      if (!record) continue;
      const time = record.block.block.header.time as string;
      for (const { tx, attributes } of eventsOfType(record, 'initiate_token_withdrawal')) {
        const withdrawal = withdrawalInitiated(attributes);
        withdrawals.add({
          sequence: BigInt(withdrawal.l2Sequence),
          from: withdrawal.from,
          to: withdrawal.to,
          baseDenom: withdrawal.baseDenom,
          amount: BigInt(withdrawal.amount),
          txHeight: record.height,
          txHash: tx.hash,
          txTime: time,
        });
      }
    }
  };

  // Relayed txs not yet seen in a block; a failed or dropped one is relayed again.
  let inflight: Array<{ hash: string; msgs: MsgFinalizeTokenDeposit[] }> = [];

  const settle = () => {
    inflight = inflight.filter(({ hash, msgs }) => {
      const found = l2.findTx(hash);
      if (!found && l2.mempoolSize() > 0) return true;
      const result = found ? l2.getBlock(found.height)?.txs[found.index]?.result : undefined;
      if (result?.code === 0) return false;
      logger.warn({ bridgeId: String(bridgeId), log: result?.log }, 'deposit relay failed; relaying again');
      queue.retry(msgs);
      return false;
    });
  };

  const relay = async () => {
    const due = queue.takeDue();
    if (due.length === 0) return;
    // Deposits the rollup has already finalized would be no-ops: skip them.
    const next = childState.nextL1Sequence(l2.state());
    const msgs = due.filter((m) => m.sequence >= next).sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
    if (msgs.length === 0) return;
    const result = await sender.send(
      msgs.map((m) => ({
        typeUrl: OPCHILD_TYPE_URLS.finalizeTokenDeposit,
        value: MsgFinalizeTokenDeposit.encode(m).finish(),
      })),
      gasPerDeposit * BigInt(msgs.length),
    );
    if (result.code === 0) inflight.push({ hash: result.hash, msgs });
    else {
      logger.warn({ bridgeId: String(bridgeId), log: result.log }, 'deposit relay refused; retrying');
      queue.retry(msgs);
    }
  };

  return {
    bridgeId,
    withdrawals,
    async poll() {
      scanL1();
      scanL2();
      if (!queue.paused) settle();
      await relay();
    },
    dueAt: queue.dueAt,
    get l2Height() {
      return l2Height;
    },
    get pendingDeposits() {
      return queue.size + inflight.reduce((n, tx) => n + tx.msgs.length, 0);
    },
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
