import type { ChainRole, VmType } from '../types.js';

/** Which chains a devnet runs: the rollups alone (`rollups`), or the whole network (`full`). */
export const NETWORKS = ['rollups', 'full'] as const;
export type NetworkKind = (typeof NETWORKS)[number];

/** One chain of the network before it is built: its role, ids and names (as the registry lists them). */
export interface ChainPlan {
  role: ChainRole;
  chainId: string;
  /** The registry's `chain_name` (its folder). */
  chainName: string;
  prettyName: string;
  /** The VM of a rollup (the L1 runs Move, the external EVM chain the EVM). */
  vm?: VmType;
}

export const chainIdOf = (vm: VmType) => `weft-${vm}-1`;
export const L1_CHAIN_ID = 'weft-l1-1';
/** The L1's fee denom, the asset OPinit bridges into every rollup. */
export const L1_DENOM = 'uinit';
export const COSMOS_CHAIN_ID = 'weft-cosmos-1';
/** The external EVM chain's EIP-155 chain id; its chain id is that number, as EVM chains are named. */
export const ETH_EVM_CHAIN_ID = 31_337;

const ROLLUP_NAMES: Record<VmType, string> = { evm: 'Weft EVM', move: 'Weft Move', wasm: 'Weft Wasm' };

export const rollupPlan = (vm: VmType): ChainPlan => ({
  role: 'rollup',
  vm,
  chainId: chainIdOf(vm),
  chainName: `weft${vm}`,
  prettyName: ROLLUP_NAMES[vm],
});

export const L1_PLAN: ChainPlan = {
  role: 'l1',
  chainId: L1_CHAIN_ID,
  chainName: 'initia',
  prettyName: 'Initia (devnet)',
};
export const COSMOS_PLAN: ChainPlan = {
  role: 'external-cosmos',
  chainId: COSMOS_CHAIN_ID,
  chainName: 'cosmoshub',
  prettyName: 'Cosmos Hub (devnet)',
};
export const ETH_PLAN: ChainPlan = {
  role: 'external-evm',
  chainId: String(ETH_EVM_CHAIN_ID),
  chainName: 'ethereum',
  prettyName: 'Ethereum (devnet)',
};

/**
 * The chains of a network, in port order. The rollups come first so that they keep their ports
 * (base + 10·i) whatever the network; the L1 and the external chains follow.
 */
export function networkPlan(network: NetworkKind, vms: readonly VmType[]): ChainPlan[] {
  const rollups = vms.map(rollupPlan);
  return network === 'full' ? [...rollups, L1_PLAN, COSMOS_PLAN, ETH_PLAN] : rollups;
}

/** Settings of the network's parts (the defaults serve a devnet: outputs and finality in seconds). */
export interface NetworkSettings {
  opinit: { outputIntervalMs: number; finalizationPeriodMs: number };
}

export const DEFAULT_NETWORK_SETTINGS: NetworkSettings = {
  opinit: { outputIntervalMs: 5_000, finalizationPeriodMs: 10_000 },
};
