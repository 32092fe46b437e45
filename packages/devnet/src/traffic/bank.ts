import { encodeAny } from 'weft/chain/registry.js';
import type { PlannedTx, TrafficContext, TrafficPlan } from './generator.js';

const MSG_SEND = '/cosmos.bank.v1beta1.MsgSend';

/** A one-msg send between two different funded accounts; the amount is chosen after the pair. */
function send(ctx: TrafficContext, amountOf: () => { amount: string; gasLimit: bigint }): PlannedTx {
  const from = ctx.rng.pick(ctx.accounts);
  const to = ctx.rng.pick(ctx.accounts.filter((a) => a !== from));
  const { amount, gasLimit } = amountOf();
  return {
    kind: 'cosmos',
    signer: from,
    msgs: [
      encodeAny(MSG_SEND, {
        fromAddress: from.address,
        toAddress: to.address,
        amount: [{ denom: ctx.chain.info.denom, amount }],
      }),
    ],
    gasLimit,
  };
}

/** Plain sends between funded accounts. */
export function bankSendPlan(weight = 4): TrafficPlan {
  return {
    name: 'bank-send',
    weight,
    next: (ctx) => send(ctx, () => ({ amount: String(ctx.rng.int(1, 1_000_000)), gasLimit: 200_000n })),
  };
}

/**
 * Txs that pass CheckTx but fail in the block: a send of more than the sender has (code 5) and a tx
 * whose gas limit is too low (code 11). Fees and sequences still move, as on a real chain.
 */
export function failingTxPlan(weight = 1): TrafficPlan {
  return {
    name: 'failing',
    weight,
    next(ctx) {
      const tx = send(ctx, () =>
        ctx.rng.chance(0.5)
          ? { amount: '1', gasLimit: 40_000n }
          : { amount: '1000000000000000000000000000000', gasLimit: 200_000n },
      );
      return { ...tx, expectFailure: true };
    },
  };
}
