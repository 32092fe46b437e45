import { sha3_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from 'weft/chain/address.js';
import type { MoveNode } from '../node.js';
import type { StateStore } from '../state/store.js';
import { canonicalHex, parseMoveAddress } from './address.js';
import type { ParamType } from './args.js';
import { MoveVmError } from './session.js';
import { runTableView, type ViewFunction, type ViewTable } from './views.js';

/**
 * The Initia modules a wallet reads on the L1 besides the stdlib: usernames (`.init` names), lock staking and
 * the CLAMM vaults (`vault` and `vault_staking`, one package). A real Initia L1 has them published; the
 * devnet's L1 publishes their views that InterwovenKit calls, answering from the devnet's state, in which
 * nobody has a name, a locked delegation or a vault stake: no entry function of the devnet writes any.
 */

/**
 * Where the devnet publishes each module: sha3-256 of `weft-devnet::<package>`, so that the addresses are
 * the devnet's own (not Initia mainnet's, whose deployments are another network's) and equal on every run.
 * InterwovenKit's `Config` takes them as `usernamesModuleAddress`, `lockStakeModuleAddress` and
 * `clammVaultModuleAddress`.
 */
export const INITIA_MODULES = {
  usernames: devnetModuleAddress('usernames'),
  lockStaking: devnetModuleAddress('lock_staking'),
  clammVault: devnetModuleAddress('clamm_vault'),
} as const;

function devnetModuleAddress(pkg: string): string {
  return `0x${bytesToHex(sha3_256(new TextEncoder().encode(`weft-devnet::${pkg}`)))}`;
}

const view = (params: readonly ParamType[], result: unknown): ViewFunction => ({
  typeParams: 0,
  params,
  run: () => [result],
});

const USERNAMES: ViewTable = {
  // `get_name_from_address(addr: address): Option<String>`: none, which movevm's JSON writes as null.
  'usernames::get_name_from_address': view(['address'], null),
  // `get_address_from_name(name: String): Option<address>`: no name is registered.
  'usernames::get_address_from_name': view(['string'], null),
};

const LOCK_STAKING: ViewTable = {
  // `get_locked_delegations(addr: address): vector<LockedDelegationResponse>`: the module answers the empty
  // vector when the address has no `StakingAccount` object, which only a lock-staking entry would create.
  'lock_staking::get_locked_delegations': view(['address'], []),
};

/**
 * A `vault` view: each takes the vault as its first argument, an `Object<Vault>`. No vault exists on the
 * devnet, so building that argument aborts (`0x1::object`, not found) before the body could run.
 */
const vaultView = (params: readonly ParamType[]): ViewFunction => ({
  typeParams: 0,
  params,
  objectType: `${INITIA_MODULES.clammVault}::vault::Vault`,
  run() {
    throw new Error('unreachable: the devnet has no Object<Vault> to pass');
  },
});

const CLAMM_VAULT: ViewTable = {
  // `user_staked_tokens(user: address)`: the `{metadata, amount}` of each vault share the user staked.
  'vault_staking::user_staked_tokens': view(['address'], []),
  // The views InterwovenKit asks of each staked vault: its info, a share's assets, the user's rewards.
  'vault::vault_info': vaultView(['object']),
  'vault::vault_share_to_asset': vaultView(['object', 'u64']),
  'vault::user_claimable_rewards': vaultView(['object', 'address']),
};

const TABLES = new Map<string, ViewTable>([
  [INITIA_MODULES.usernames.slice(2), USERNAMES],
  [INITIA_MODULES.lockStaking.slice(2), LOCK_STAKING],
  [INITIA_MODULES.clammVault.slice(2), CLAMM_VAULT],
]);

/** The L1's Move node with the Initia modules' views added at their addresses; other calls go to `inner`. */
export function withInitiaModules(inner: MoveNode, store: StateStore, prefix: string): MoveNode {
  return {
    resource: (address, structTag, height) => inner.resource(address, structTag, height),
    view(call, height) {
      let table: ViewTable | undefined;
      try {
        table = TABLES.get(canonicalHex(parseMoveAddress(call.address, prefix)));
      } catch {
        // An address that does not parse is the inner node's to refuse, with the querier's message.
      }
      if (!table) {
        if (!inner.view) throw new MoveVmError('LINKER_ERROR');
        return inner.view(call, height);
      }
      return runTableView(store.at(height ?? store.height), table, call);
    },
  };
}
