import { encodeAny } from 'weft/chain/registry.js';
import { hostState } from '../opinit/host-state.js';
import type { OpinitExecutor } from '../relayers/opinit-executor.js';
import type { TrafficPlan } from './generator.js';

const DEPOSIT = '/opinit.ophost.v1.MsgInitiateTokenDeposit';
const WITHDRAWAL = '/opinit.opchild.v1.MsgInitiateTokenWithdrawal';
const CLAIM = '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal';

/** One bridge as the L1's traffic sees it: its id and the rollup accounts deposits go to. */
export interface DepositTarget {
  bridgeId: bigint;
  recipients: readonly string[];
}

/**
 * L1 deposits into the rollups' bridges (`MsgInitiateTokenDeposit` of the fee denom); one in ten asks
 * for more than the sender has and fails in the block, as a wallet's stale balance would.
 */
export function opinitDepositPlan(targets: readonly DepositTarget[], weight = 1): TrafficPlan {
  return {
    name: 'opinit-deposit',
    interchain: true,
    weight,
    next(ctx) {
      if (targets.length === 0) return undefined;
      const target = ctx.rng.pick(targets);
      if (target.recipients.length === 0) return undefined;
      const failing = ctx.rng.chance(0.1);
      const sender = ctx.rng.pick(ctx.accounts);
      return {
        kind: 'cosmos',
        signer: sender,
        msgs: [
          encodeAny(DEPOSIT, {
            sender: sender.address,
            bridgeId: target.bridgeId,
            to: ctx.rng.pick(target.recipients),
            amount: {
              denom: ctx.chain.info.denom,
              amount: failing ? '1000000000000000000000000000000' : String(ctx.rng.int(1, 1_000_000)),
            },
          }),
        ],
        gasLimit: 250_000n,
        expectFailure: failing,
      };
    },
  };
}

/**
 * Rollup withdrawals of deposited `l2/…` coins back to L1 accounts (`MsgInitiateTokenWithdrawal`): a
 * part of what the sender holds, or (one in ten) more than that, which fails in the block.
 */
export function opinitWithdrawalPlan(l1Recipients: readonly string[], weight = 1): TrafficPlan {
  return {
    name: 'opinit-withdrawal',
    interchain: true,
    weight,
    async next(ctx) {
      if (l1Recipients.length === 0) return undefined;
      const sender = ctx.rng.pick(ctx.accounts);
      const held = (await ctx.chain.balances(sender.address)).filter((c) => c.denom.startsWith('l2/'));
      if (held.length === 0) return undefined;
      const coin = ctx.rng.pick(held);
      const failing = ctx.rng.chance(0.1);
      const have = BigInt(coin.amount);
      const amount = failing ? have + 1n : have / 2n > 0n ? have / 2n : have;
      return {
        kind: 'cosmos',
        signer: sender,
        msgs: [
          encodeAny(WITHDRAWAL, {
            sender: sender.address,
            to: ctx.rng.pick(l1Recipients),
            amount: { denom: coin.denom, amount: amount.toString() },
          }),
        ],
        gasLimit: 2_000_000n,
        expectFailure: failing,
      };
    },
  };
}

/**
 * L1 claims (`MsgFinalizeTokenWithdrawal`) of rollup withdrawals whose output has finalized, with the
 * proofs the bridges' executors serve; any L1 account may send a claim, the coins go to its `to`.
 */
export function opinitClaimPlan(executors: readonly OpinitExecutor[], weight = 1): TrafficPlan {
  const sent = new Set<string>();
  return {
    name: 'opinit-claim',
    weight,
    next(ctx) {
      const state = ctx.chain.state();
      const latest = ctx.chain.getBlock(ctx.chain.latestHeight());
      const nowMs = Date.parse(String(latest?.block.block.header.time ?? ''));
      if (Number.isNaN(nowMs)) return undefined;
      for (const executor of executors) {
        const bridge = hostState.bridge(state, executor.bridgeId);
        if (!bridge) continue;
        for (const proof of executor.withdrawals.proven()) {
          const key = `${proof.bridge_id}/${proof.sequence}`;
          if (sent.has(key)) continue;
          const output = hostState.output(state, executor.bridgeId, BigInt(proof.output_index));
          // Claimable in the next block, whose time is at least this one's plus a block.
          if (!output || output.l1BlockTimeMs + bridge.config.finalizationPeriodMs > nowMs) continue;
          sent.add(key);
          const sender = ctx.rng.pick(ctx.accounts);
          const bytes = (b64: string | null) => Buffer.from(b64 ?? '', 'base64');
          return {
            kind: 'cosmos',
            signer: sender,
            msgs: [
              encodeAny(CLAIM, {
                sender: sender.address,
                bridgeId: executor.bridgeId,
                outputIndex: BigInt(proof.output_index),
                withdrawalProofs: (proof.withdrawal_proofs ?? []).map(bytes),
                from: proof.from,
                to: proof.to,
                sequence: BigInt(proof.sequence),
                amount: proof.amount,
                version: bytes(proof.version),
                storageRoot: bytes(proof.storage_root),
                lastBlockHash: bytes(proof.last_block_hash),
              }),
            ],
            gasLimit: 300_000n,
          };
        }
      }
      return undefined;
    },
  };
}
