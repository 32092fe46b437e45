import type { VmBase, VmParts } from '../rollup.js';
import type { Coin } from '../types.js';
import { createOpchildModule, type OpchildGenesis } from './child.js';
import { createOphostModule, type OphostModule } from './host.js';
import type { BridgeConfig } from './host-state.js';

/**
 * Adds OPinit's host module to a chain's parts: its msgs, its params and the given bridges at genesis
 * (ids 1, 2, … in order). The returned module tells bridge addresses and creates more bridges.
 */
export function withOphost(
  parts: VmParts,
  base: VmBase,
  bridges: BridgeConfig[],
): { parts: VmParts; host: OphostModule } {
  const host = createOphostModule({
    auth: base.auth,
    bank: parts.bank ?? base.bank,
    prefix: base.info.bech32Prefix,
  });
  return {
    host,
    parts: {
      ...parts,
      modules: [...parts.modules, host.module],
      async genesis(ctx) {
        await parts.genesis?.(ctx);
        host.genesis(ctx);
        for (const config of bridges) host.createBridge(ctx.store, config);
      },
    },
  };
}

/**
 * Adds OPinit's child module to a rollup's parts, with its bridge info and executors at genesis; the
 * executors get `executorFunding` (fee denom) so that they can pay for the deposits they relay.
 */
export function withOpchild(
  parts: VmParts,
  base: VmBase,
  genesis: OpchildGenesis & { executorFunding?: Coin[] },
): VmParts {
  const bank = parts.bank ?? base.bank;
  const child = createOpchildModule({ auth: base.auth, bank, prefix: base.info.bech32Prefix });
  return {
    ...parts,
    modules: [...parts.modules, child.module],
    async genesis(ctx) {
      await parts.genesis?.(ctx);
      child.genesis(ctx, genesis);
      for (const executor of genesis.executors) {
        base.auth.ensure(ctx.store, executor);
        if (genesis.executorFunding) await bank.mint(ctx, executor, genesis.executorFunding);
      }
    },
  };
}
