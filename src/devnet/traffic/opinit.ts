import { encodeAny } from '../../chain/registry.js';
import type { TrafficPlan } from './generator.js';

const DEPOSIT = '/opinit.ophost.v1.MsgInitiateTokenDeposit';
const WITHDRAWAL = '/opinit.opchild.v1.MsgInitiateTokenWithdrawal';

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
