import type { VmBase, VmParts } from '../dev-chain.js';
import { ibcModule } from '../ibc/network-module.js';
import { omnichainModule } from '../omnichain/network-module.js';
import { opinitChildModule, opinitHostModule } from '../opinit/network.js';
import type { ChainPlan, NetworkSettings } from './plan.js';

/**
 * A module a part of the network adds to some of its chains (the OPinit host on the L1, the child on
 * every rollup, ICS-20 on every Cosmos chain, ...). A part plugs in with one line in `NETWORK_MODULES`.
 */
export interface NetworkModule {
  readonly name: string;
  /** Whether `chain` gets this module; `network` is every chain of the network, in port order. */
  appliesTo(chain: ChainPlan, network: readonly ChainPlan[]): boolean;
  /** `own`: the chain's parts before any module (a module may wrap one of its msg modules). */
  parts(base: ModuleBase): Partial<VmParts> | Promise<Partial<VmParts>>;
}

export interface ModuleBase extends VmBase {
  plan: ChainPlan;
  network: readonly ChainPlan[];
  seed: string;
  settings: NetworkSettings;
  own: VmParts;
}

/** The modules the parts of the network register; a chain with none of them is built as before. */
export const NETWORK_MODULES: NetworkModule[] = [
  opinitHostModule,
  opinitChildModule,
  omnichainModule,
  ibcModule,
];

/** Adds modules' parts to a chain's own: modules, plans and hooks append, genesis steps run in order. */
export function mergeParts(own: VmParts, extra: Array<Partial<VmParts>>): VmParts {
  if (extra.length === 0) return own;
  const geneses = [own.genesis, ...extra.map((e) => e.genesis)].filter((g) => g !== undefined);
  const sendEthTx = own.sendEthTx ?? extra.find((e) => e.sendEthTx)?.sendEthTx;
  const evm = own.evm ?? extra.find((e) => e.evm)?.evm;
  return {
    ...own,
    bank: own.bank ?? extra.find((e) => e.bank)?.bank,
    modules: [...own.modules, ...extra.flatMap((e) => e.modules ?? [])],
    plans: [...own.plans, ...extra.flatMap((e) => e.plans ?? [])],
    hooks: [...(own.hooks ?? []), ...extra.flatMap((e) => e.hooks ?? [])],
    extensions: Object.assign({}, own.extensions, ...extra.map((e) => e.extensions ?? {})),
    ...(geneses.length > 0
      ? {
          genesis: async (ctx) => {
            for (const genesis of geneses) await genesis(ctx);
          },
        }
      : {}),
    ...(evm ? { evm } : {}),
    ...(sendEthTx ? { sendEthTx } : {}),
  };
}
