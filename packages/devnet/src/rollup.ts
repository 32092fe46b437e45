import type { Logger } from 'weft/common/logger.js';
import { createDevChain, type DevChain, type PartsOf } from './dev-chain.js';
import { evmChainIdOf } from './evm/fee-units.js';
import type { KeyType } from './keys.js';
import { bankSendPlan, failingTxPlan } from './traffic/bank.js';
import type { VmType } from './types.js';

export { GENESIS_TIME_MS, moduleAddressBytes, type VmBase, type VmParts } from './dev-chain.js';

export interface RollupOptions {
  vm: VmType;
  chainId: string;
  seed: string;
  accounts: number;
  blockTimeMs: number;
  /** Folder of this chain's blocks; absent = in memory. */
  stateDir?: string;
  logger: Logger;
}

export interface Rollup extends DevChain {
  vm: VmType;
}

export const BECH32_PREFIX = 'init';
/** Funding of each test account, in base units of the fee denom. */
const FUNDING: Record<VmType, bigint> = { evm: 10n ** 24n, move: 10n ** 15n, wasm: 10n ** 15n };

const VM_FACTS: Record<VmType, { keyType: KeyType; denom: string; minGasPrice: number }> = {
  evm: { keyType: 'ethsecp256k1', denom: 'GAS', minGasPrice: 1e9 },
  move: { keyType: 'secp256k1', denom: 'umin', minGasPrice: 0.15 },
  wasm: { keyType: 'secp256k1', denom: 'umin', minGasPrice: 0.15 },
};

/** One rollup of VM `vm`: the common chain with bank sends and failing txs, plus its VM's parts. */
export async function createRollup(options: RollupOptions, vmParts?: PartsOf): Promise<Rollup> {
  const facts = VM_FACTS[options.vm];
  const chain = await createDevChain(
    {
      info: {
        chainId: options.chainId,
        vm: options.vm,
        role: 'rollup',
        bech32Prefix: BECH32_PREFIX,
        denom: facts.denom,
        minGasPrice: facts.minGasPrice,
        evmChainId: options.vm === 'evm' ? Number(evmChainIdOf(options.chainId)) : undefined,
      },
      keyType: facts.keyType,
      funding: FUNDING[options.vm],
      plans: [bankSendPlan(), failingTxPlan()],
    },
    options,
    vmParts,
  );
  return { ...chain, vm: options.vm };
}
