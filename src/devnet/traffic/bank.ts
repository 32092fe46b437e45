import { encodeAny } from '../../chain/registry.js';
import type { TrafficPlan } from './generator.js';

const MSG_SEND = '/cosmos.bank.v1beta1.MsgSend';

/** Plain sends between funded accounts. */
export function bankSendPlan(weight = 4): TrafficPlan {
  return {
    name: 'bank-send',
    weight,
    next({ rng, accounts, chain }) {
      const from = rng.pick(accounts);
      const to = rng.pick(accounts.filter((a) => a !== from));
      const amount = String(rng.int(1, 1_000_000));
      return {
        kind: 'cosmos',
        signer: from,
        msgs: [
          encodeAny(MSG_SEND, {
            fromAddress: from.address,
            toAddress: to.address,
            amount: [{ denom: chain.info.denom, amount }],
          }),
        ],
        gasLimit: 200_000n,
      };
    },
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
    next({ rng, accounts, chain }) {
      const from = rng.pick(accounts);
      const to = rng.pick(accounts.filter((a) => a !== from));
      const outOfGas = rng.chance(0.5);
      const amount = outOfGas ? '1' : '1000000000000000000000000000000';
      return {
        kind: 'cosmos',
        signer: from,
        msgs: [
          encodeAny(MSG_SEND, {
            fromAddress: from.address,
            toAddress: to.address,
            amount: [{ denom: chain.info.denom, amount }],
          }),
        ],
        gasLimit: outOfGas ? 40_000n : 200_000n,
        expectFailure: true,
      };
    },
  };
}
