import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TrafficPlan } from './generator.js';

/** Native value transfers between funded accounts, signed as Ethereum txs (an Ethereum chain's plain sends). */
export function ethTransferPlan(options: {
  evmChainId: number;
  gasPrice: bigint;
  weight?: number;
}): TrafficPlan {
  return {
    name: 'eth-transfer',
    weight: options.weight ?? 4,
    next({ rng, accounts }) {
      const from = rng.pick(accounts);
      const to = rng.pick(accounts.filter((a) => a !== from));
      const value = BigInt(rng.int(1, 1_000_000)) * 10n ** 9n;
      return {
        kind: 'eth',
        signer: from,
        async build(nonce) {
          const serialized = await privateKeyToAccount(from.privateKey as Hex).signTransaction({
            type: 'eip1559',
            chainId: options.evmChainId,
            nonce: Number(nonce),
            // The ante of the EVM machinery meters more than the 21,000 of a plain Ethereum transfer.
            gas: 60_000n,
            maxFeePerGas: options.gasPrice,
            maxPriorityFeePerGas: 0n,
            to: to.hexAddress as Hex,
            value,
          });
          return Buffer.from(serialized.slice(2), 'hex');
        },
      };
    },
  };
}
