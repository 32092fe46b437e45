import type { NetworkChain } from './devnet.js';
import type { DevAccount } from './keys.js';
import { INITIA_MODULES } from './move/initia-modules.js';
import type { NetworkKind } from './network/plan.js';
import type { ChainRole, VmType } from './types.js';

export interface ManifestAccount {
  name: string;
  address: string;
  hex_address: string;
  mnemonic: string;
  private_key: string;
  key_type: string;
}

/** What `--manifest` writes: every chain with its role, URLs and funded accounts, and the network's own URLs. */
export interface Manifest {
  seed: string;
  network: NetworkKind;
  /** The registry folder, when written. */
  registry: string | null;
  /** The control surface's JSON-RPC URL. */
  control: string;
  /** Per service of the network (relayers, executors): what it publishes, e.g. an executor's URL. */
  services: Record<string, Record<string, unknown>>;
  chains: Array<{
    chain_id: string;
    chain_name: string;
    role: ChainRole;
    vm: VmType | null;
    rpc: string | null;
    rest: string | null;
    json_rpc: string | null;
    denom: string;
    bech32_prefix: string;
    evm_chain_id: number | null;
    /** On the L1, where its Initia modules are published (a wallet's usernames, lock staking, vault module addresses). */
    initia_modules: { usernames: string; lock_staking: string; clamm_vault: string } | null;
    accounts: ManifestAccount[];
  }>;
}

export function manifestOf(input: Omit<Manifest, 'chains'> & { chains: readonly NetworkChain[] }): Manifest {
  const { chains, ...rest } = input;
  return {
    ...rest,
    chains: chains.map((c) => {
      const urls: { rpc?: string; rest?: string; jsonRpc?: string } = c.urls;
      return {
        chain_id: c.chain.info.chainId,
        chain_name: c.plan.chainName,
        role: c.role,
        vm: 'vm' in c ? c.vm : null,
        rpc: urls.rpc ?? null,
        rest: urls.rest ?? null,
        json_rpc: urls.jsonRpc ?? null,
        denom: c.chain.info.denom,
        bech32_prefix: c.chain.info.bech32Prefix,
        evm_chain_id: c.chain.info.evmChainId ?? null,
        initia_modules: c.role === 'l1' ? L1_INITIA_MODULES : null,
        accounts: c.accounts.map(manifestAccount),
      };
    }),
  };
}

const L1_INITIA_MODULES = {
  usernames: INITIA_MODULES.usernames,
  lock_staking: INITIA_MODULES.lockStaking,
  clamm_vault: INITIA_MODULES.clammVault,
};

function manifestAccount(account: DevAccount): ManifestAccount {
  return {
    name: account.name,
    address: account.address,
    hex_address: account.hexAddress,
    mnemonic: account.mnemonic,
    private_key: account.privateKey,
    key_type: account.keyType,
  };
}
