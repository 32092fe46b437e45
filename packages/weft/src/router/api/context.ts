import type { OpHookAccounts } from '../accounts/op-hook-accounts.js';
import type { HopGraph } from '../graph/hops.js';
import type { ChainFacts } from '../graph/plan.js';
import type { RouterRegistry } from '../registry/types.js';

/** What every router route reads; also handed to plugins mounted on the server (e.g. tracking). */
export interface RouterContext {
  registry: RouterRegistry;
  graph: HopGraph;
  facts: ChainFacts;
  /** Per-request timeout of node calls (balances), ms. */
  nodeTimeoutMs: number;
  /** The IBC timeout of a `/msgs` request that names none, s. */
  ibcTimeoutSeconds: number;
  /** Makes sure a hook's signer has an account on the hook chain (`/op-hook`). */
  opHookAccounts: OpHookAccounts;
}
