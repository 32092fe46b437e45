import { type GasMeter, TxError } from './types.js';

/** Fixed gas costs, in the spirit of the SDK's KV gas config: deterministic and roughly realistic. */
export const GasCost = {
  txSizePerByte: 10n,
  secp256k1Verify: 1000n,
  // The ante handler's bank send to the fee collector: less than a MsgSend (no msg events, one module
  // account), and within the 40 % wallets add to a feeless simulation (cosmjs and InterwovenKit: 1.4).
  feeDeduction: 10_000n,
  sequenceIncrement: 6_000n,
  bankSend: 30_000n,
  moveExecute: 60_000n,
  wasmExecute: 90_000n,
  ibcRecv: 80_000n,
} as const;

export function createGasMeter(limit: bigint): GasMeter {
  let used = 0n;
  return {
    limit,
    get used() {
      return used;
    },
    consume(amount, descriptor) {
      used += amount;
      if (used > limit) {
        throw new TxError(
          'sdk',
          11,
          `out of gas in location: ${descriptor}; gasWanted: ${limit}, gasUsed: ${used}: out of gas`,
        );
      }
    },
  };
}
