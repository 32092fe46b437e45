import { gasPriceWei } from '../evm/fee-units.js';
import type { EvmModule } from '../evm/module.js';
import { MSG_EXECUTE } from '../move/module.js';
import type { NetworkModule } from '../network/modules.js';
import type { ChainPlan } from '../network/plan.js';
import { omnichainMovePlan } from '../traffic/omnichain.js';
import { createOmnichainEvm } from './evm-genesis.js';
import { moveOmnichain } from './move-parts.js';
import type { OmnichainMember } from './network.js';
import { omnichainMembers, omnichainSetupFor } from './wiring.js';

/**
 * The omnichain bridge in the network: its members are the L1 (Move), the EVM rollup and the external
 * EVM chain; each gets the bridge at genesis with every other member as its peer.
 */
export function networkOmnichainMembers(network: readonly ChainPlan[]): OmnichainMember[] {
  const chains = network.flatMap((p): Array<{ chainId: string; kind: 'evm' | 'move' }> => {
    if (p.role === 'l1') return [{ chainId: p.chainId, kind: 'move' }];
    if (p.role === 'external-evm' || (p.role === 'rollup' && p.vm === 'evm'))
      return [{ chainId: p.chainId, kind: 'evm' }];
    return [];
  });
  // A bridge needs two ends, and only the full network has the L1 or the external EVM chain.
  if (chains.length < 2 || !network.some((p) => p.role === 'l1' || p.role === 'external-evm')) return [];
  return omnichainMembers(chains);
}

export const omnichainModule: NetworkModule = {
  name: 'omnichain',
  appliesTo: (plan, network) => networkOmnichainMembers(network).some((m) => m.chainId === plan.chainId),
  parts(base) {
    const setup = omnichainSetupFor(base.seed, networkOmnichainMembers(base.network), base.plan.chainId);
    if (setup.self.kind === 'move') {
      const omnichain = moveOmnichain(base, setup);
      const move = base.own.modules.find((m) => m.typeUrls.includes(MSG_EXECUTE));
      if (!move) throw new Error(`omnichain: ${base.plan.chainId} has no Move module`);
      return {
        // Routed last, the wrapper takes MsgExecute to the bridge's package and passes the rest on.
        modules: [omnichain.wrap(move)],
        genesis: (ctx) => omnichain.genesis(ctx, base.accounts),
        extensions: { move: omnichain.node(base.own.extensions?.move) },
        plans: [omnichainMovePlan({ setup, accounts: base.accounts })],
      };
    }
    const evm = base.own.evm as EvmModule | undefined;
    if (!evm) throw new Error(`omnichain: ${base.plan.chainId} has no EVM`);
    const omnichain = createOmnichainEvm(evm, setup);
    return {
      modules: [],
      genesis: (ctx) => omnichain.genesis(ctx, base.accounts),
      plans: [omnichain.trafficPlan(base.accounts, gasPriceWei(base.info.minGasPrice, evm.feeDecimals))],
    };
  },
};
