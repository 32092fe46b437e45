import type { Chain } from '../chain.js';
import type { DevAccount } from '../keys.js';
import { signTx } from '../tx/sign.js';
import type { AnyMsg } from '../types.js';

export interface RelayerTxSender {
  /** Signs the msgs as one tx and queues it; returns the CheckTx code and log. */
  send(msgs: AnyMsg[], gasLimit: bigint): Promise<{ code: number; log: string; hash: string }>;
}

/**
 * Signs a relayer's txs with its own account, keeping the sequence of txs still in the mempool (the
 * committed account lags behind them); a sequence mismatch makes it reread the account.
 */
export function createRelayerTxSender(chain: Chain, signer: DevAccount): RelayerTxSender {
  let nextSequence: bigint | undefined;
  return {
    async send(msgs, gasLimit) {
      const account = chain.account(signer.address);
      if (!account) return { code: 9, log: `account ${signer.address} not found`, hash: '' };
      const sequence =
        nextSequence !== undefined && nextSequence > account.sequence ? nextSequence : account.sequence;
      const { info } = chain;
      const fee = BigInt(Math.ceil(info.minGasPrice * Number(gasLimit)));
      const raw = signTx({
        msgs,
        fee: { amount: [{ denom: info.denom, amount: fee.toString() }], gasLimit },
        signer,
        chainId: info.chainId,
        accountNumber: account.accountNumber,
        sequence,
      });
      const result = await chain.submit(raw);
      nextSequence = result.code === 0 ? sequence + 1n : undefined;
      return { code: result.code, log: result.log, hash: result.hash };
    },
  };
}
