import type { Attributes } from './events.js';

/**
 * OPinit's bridge events, read into records: the L1's `initiate_token_deposit` and
 * `finalize_token_withdrawal` (OPinit `x/ophost/types/events.go`), the rollup's `finalize_token_deposit`
 * and `initiate_token_withdrawal` (`x/opchild/types/events.go`). Amounts and sequences stay text.
 */

/** L1: a deposit into a rollup (`MsgInitiateTokenDeposit`). */
export interface DepositInitiated {
  bridgeId: string;
  l1Sequence: string;
  from: string;
  to: string;
  l1Denom: string;
  l2Denom: string;
  amount: string;
  /** The hook data, hex. */
  data: string;
}

export const depositInitiated = (a: Attributes): DepositInitiated => ({
  bridgeId: a.bridge_id ?? '',
  l1Sequence: a.l1_sequence ?? '',
  from: a.from ?? '',
  to: a.to ?? '',
  l1Denom: a.l1_denom ?? '',
  l2Denom: a.l2_denom ?? '',
  amount: a.amount ?? '0',
  data: a.data ?? '',
});

/** Rollup: a deposit finalized (`MsgFinalizeTokenDeposit`); a failed hook or mint says why. */
export interface DepositFinalized {
  l1Sequence: string;
  sender: string;
  recipient: string;
  denom: string;
  baseDenom: string;
  amount: string;
  finalizeHeight: string;
  success: boolean;
  reason?: string;
}

export const depositFinalized = (a: Attributes): DepositFinalized => ({
  l1Sequence: a.l1_sequence ?? '',
  sender: a.sender ?? '',
  recipient: a.recipient ?? '',
  denom: a.denom ?? '',
  baseDenom: a.base_denom ?? '',
  amount: a.amount ?? '0',
  finalizeHeight: a.finalize_height ?? '',
  success: a.success !== 'false',
  reason: a.reason || undefined,
});

/** Rollup: a withdrawal to the L1 (`MsgInitiateTokenWithdrawal`). */
export interface WithdrawalInitiated {
  l2Sequence: string;
  from: string;
  to: string;
  denom: string;
  baseDenom: string;
  amount: string;
}

export const withdrawalInitiated = (a: Attributes): WithdrawalInitiated => ({
  l2Sequence: a.l2_sequence ?? '',
  from: a.from ?? '',
  to: a.to ?? '',
  denom: a.denom ?? '',
  baseDenom: a.base_denom ?? '',
  amount: a.amount ?? '0',
});

/** L1: a withdrawal claimed (`MsgFinalizeTokenWithdrawal`) against a proven output. */
export interface WithdrawalFinalized {
  bridgeId: string;
  outputIndex: string;
  l2Sequence: string;
  from: string;
  to: string;
  l1Denom: string;
  l2Denom: string;
  amount: string;
}

export const withdrawalFinalized = (a: Attributes): WithdrawalFinalized => ({
  bridgeId: a.bridge_id ?? '',
  outputIndex: a.output_index ?? '',
  l2Sequence: a.l2_sequence ?? '',
  from: a.from ?? '',
  to: a.to ?? '',
  l1Denom: a.l1_denom ?? '',
  l2Denom: a.l2_denom ?? '',
  amount: a.amount ?? '0',
});
