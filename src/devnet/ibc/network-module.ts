import type { NetworkModule } from '../network/modules.js';
import type { ChainPlan } from '../network/plan.js';
import { type ChainRef, type ChannelPlan, planChannels } from './network.js';
import { withIbc } from './setup.js';

/**
 * ICS-20 in the network: a transfer channel between the L1 and each rollup, then one between the L1 and
 * the external Cosmos chain. Ids follow from the link order (the rollups in port order, the external
 * chain last), so the chains' geneses, the relayer and the registry agree without talking.
 */

/** The bech32 prefix of a Cosmos chain of the network (the L1 and the rollups use `init`). */
export const prefixOf = (plan: ChainPlan) => (plan.role === 'external-cosmos' ? 'cosmos' : 'init');

const refOf = (plan: ChainPlan): ChainRef => ({ chainId: plan.chainId, prefix: prefixOf(plan) });

/** The network's transfer channels; none without an L1 (the rollups-only devnet has no IBC). */
export function networkChannels(network: readonly ChainPlan[]): ChannelPlan {
  const l1 = network.find((p) => p.role === 'l1');
  if (!l1) return planChannels([]);
  const others = [
    ...network.filter((p) => p.role === 'rollup'),
    ...network.filter((p) => p.role === 'external-cosmos'),
  ];
  return planChannels(others.map((other) => [refOf(l1), refOf(other)]));
}

/** Core IBC, ICS-20 under the packet-forward middleware and the transfer traffic, on every linked chain. */
export const ibcModule: NetworkModule = {
  name: 'ibc',
  appliesTo: (plan, network) => networkChannels(network).channels.has(plan.chainId),
  parts(base) {
    const channels = networkChannels(base.network).channels.get(base.plan.chainId)!;
    // The EVM rollup's bank keeps its coins as ERC20s: vouchers are minted and burned there as ERC20s too.
    const parts = withIbc(base, { modules: [], plans: [], bank: base.own.bank ?? base.bank }, { channels });
    return {
      modules: parts.modules,
      plans: parts.plans,
      ...(parts.genesis ? { genesis: parts.genesis } : {}),
    };
  },
};
