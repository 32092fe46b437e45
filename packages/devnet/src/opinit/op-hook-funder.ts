import { deriveAccount } from '../keys.js';
import type { ChainPlan } from '../network/plan.js';

/**
 * The account a router over this devnet creates op-hook signers' accounts from (its
 * `--op-hook-funder-key`): an Ethereum key, funded at genesis on every EVM rollup of a network with an
 * L1 (where deposits arrive wrapped through a hook). No traffic signs with it, so the router's sends
 * never race the devnet's own for its sequence.
 */
export const opHookFunderAccount = (seed: string) =>
  deriveAccount({ seed, index: 20_300, keyType: 'ethsecp256k1', prefix: 'init', name: 'op-hook-funder' });

/** The fee denom it holds on each such rollup: billions of creations at the EVM rollup's gas price. */
export const OP_HOOK_FUNDER_FUNDING = 10n ** 24n;

/** Whether a network funds the account: it has an EVM rollup and an L1 to bridge from. */
export const fundsOpHooks = (network: readonly ChainPlan[]) =>
  network.some((p) => p.role === 'l1') && network.some((p) => p.role === 'rollup' && p.vm === 'evm');
