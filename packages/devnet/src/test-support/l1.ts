import { silentLogger } from 'weft/common/logger.js';
import { createDevChain, type DevChain, type PartsOf } from '../dev-chain.js';

/**
 * A lone L1 as the devnet's network builds its spec (Move, `uinit` at 0.015), for tests of its node
 * surfaces: `parts` adds the L1's modules (the network's `l1Parts`) where a test needs them.
 */
export function createTestL1(name: string, parts?: PartsOf, accounts = 2): Promise<DevChain> {
  return createDevChain(
    {
      info: {
        chainId: `${name}-1`,
        vm: 'move',
        role: 'l1',
        bech32Prefix: 'init',
        denom: 'uinit',
        minGasPrice: 0.015,
      },
      keyType: 'secp256k1',
      funding: 10n ** 12n,
      plans: [],
    },
    { seed: name, accounts, blockTimeMs: 1000, logger: silentLogger() },
    parts,
  );
}
