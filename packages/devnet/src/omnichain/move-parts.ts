import type { VmBase } from '../rollup.js';
import { createOmnichainMove, type OmnichainMove } from './move-module.js';
import type { OmnichainSetup } from './network.js';

/** The omnichain module of a Move chain (a Move rollup, or the L1 once it has the bridge). */
export function moveOmnichain(base: VmBase, setup: OmnichainSetup): OmnichainMove {
  return createOmnichainMove({
    setup,
    prefix: base.info.bech32Prefix,
    feeDenom: base.info.denom,
    keyType: 'secp256k1',
    bank: base.bank,
    auth: base.auth,
    store: base.store,
  });
}
