import type { Logger } from 'weft/common/logger.js';
import {
  createDevChain,
  type DevChain,
  type DevChainOptions,
  type VmBase,
  type VmParts,
} from '../dev-chain.js';
import { evmParts } from '../evm/parts.js';
import { withInitiaModules } from '../move/initia-modules.js';
import { createMoveNftModule } from '../move/module.js';
import { createRollup, type Rollup } from '../rollup.js';
import { bankSendPlan, failingTxPlan } from '../traffic/bank.js';
import { moveNftPlan } from '../traffic/move.js';
import type { VmType } from '../types.js';
import { vmParts } from '../vms.js';
import { mergeParts, NETWORK_MODULES, type NetworkModule } from './modules.js';
import {
  type ChainPlan,
  DEFAULT_NETWORK_SETTINGS,
  ETH_EVM_CHAIN_ID,
  L1_DENOM,
  type NetworkSettings,
} from './plan.js';

/** A built chain of the network: the L1 and the rollups have a VM; the external Cosmos chain has none. */
export type NetworkDevChain = (DevChain & { vm?: VmType }) | Rollup;

export interface NetworkChainOptions extends DevChainOptions {
  logger: Logger;
  /** Modules the network's parts add (default: the registered ones). */
  modules?: readonly NetworkModule[];
  /** Every chain of the network (default: this one alone). */
  network?: readonly ChainPlan[];
  settings?: NetworkSettings;
}

/** Builds one planned chain: a rollup as `createRollup` always has, or the L1 or an external chain. */
export async function createNetworkChain(
  plan: ChainPlan,
  options: NetworkChainOptions,
): Promise<NetworkDevChain> {
  const network = options.network ?? [plan];
  const settings = options.settings ?? DEFAULT_NETWORK_SETTINGS;
  const modules = (options.modules ?? NETWORK_MODULES).filter((m) => m.appliesTo(plan, network));
  const withModules =
    (parts: (base: VmBase) => Promise<VmParts> | VmParts) =>
    async (base: VmBase): Promise<VmParts> => {
      const own = await parts(base);
      return mergeParts(
        own,
        await Promise.all(
          modules.map((m) => m.parts({ ...base, plan, network, seed: options.seed, settings, own })),
        ),
      );
    };
  const { seed, logger } = options;
  switch (plan.role) {
    case 'rollup': {
      const vm = plan.vm!;
      return createRollup(
        { ...options, vm, chainId: plan.chainId },
        withModules((base) => vmParts(vm, { ...base, seed, logger })),
      );
    }
    case 'l1': {
      const chain = await createDevChain(
        {
          info: {
            chainId: plan.chainId,
            vm: 'move',
            role: 'l1',
            bech32Prefix: 'init',
            denom: L1_DENOM,
            minGasPrice: 0.015,
          },
          keyType: 'secp256k1',
          funding: 10n ** 15n,
          plans: [bankSendPlan(), failingTxPlan()],
        },
        options,
        withModules(l1Parts),
      );
      return { ...chain, vm: 'move' };
    }
    case 'external-cosmos':
      return createDevChain(
        {
          info: {
            chainId: plan.chainId,
            vm: 'none',
            role: 'external-cosmos',
            bech32Prefix: 'cosmos',
            denom: 'uatom',
            minGasPrice: 0.005,
          },
          keyType: 'secp256k1',
          funding: 10n ** 15n,
          plans: [bankSendPlan(), failingTxPlan()],
        },
        options,
        withModules(() => ({ modules: [], plans: [] })),
      );
    case 'external-evm': {
      const chain = await createDevChain(
        {
          info: {
            chainId: plan.chainId,
            vm: 'evm',
            role: 'external-evm',
            bech32Prefix: 'init',
            denom: 'wei',
            minGasPrice: 1e9,
            evmChainId: ETH_EVM_CHAIN_ID,
          },
          keyType: 'ethsecp256k1',
          funding: 10n ** 24n,
          plans: [],
          ethTxsOnly: true,
        },
        options,
        withModules((base) => evmParts({ ...base, seed, logger }, { ethOnly: true })),
      );
      return { ...chain, vm: 'evm' };
    }
  }
}

/**
 * The L1's own parts: Move objects, collections and NFTs, and the views of the Initia modules a wallet reads
 * on an L1 (usernames, lock staking, vaults); the OPinit host and IBC plug in as modules.
 */
export function l1Parts(base: VmBase): VmParts {
  const prefix = base.info.bech32Prefix;
  const moveNft = createMoveNftModule({ prefix, store: base.store, auth: base.auth });
  return {
    modules: [moveNft.module],
    plans: [moveNftPlan(base.accounts)],
    extensions: { move: withInitiaModules(moveNft.node, base.store, prefix) },
    ics721: { kind: 'move', move: moveNft.executor },
  };
}
