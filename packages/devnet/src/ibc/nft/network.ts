import type { VmBase } from '../../dev-chain.js';
import type { MsgModule } from '../../types.js';
import type { IbcCore } from '../core/module.js';
import { createNftApp, type NftAppVm } from './app.js';
import { withNftMoveHook } from './hook.js';
import { createNftTransferMsgModule } from './msgs.js';

/**
 * ICS-721 on a chain of the network, bound to its port: the app; on Move chains the `MsgTransfer` msg
 * server, and on the L1 the move hook that sends NFTs on. Answers the msg modules to add.
 */
export function ics721Modules(
  core: IbcCore,
  port: string,
  base: VmBase,
  vm: NftAppVm,
  hooks: boolean,
): MsgModule[] {
  const nft = createNftApp({ core, port, prefix: base.info.bech32Prefix, auth: base.auth, vm });
  if (vm.kind !== 'move') return [];
  if (hooks) withNftMoveHook({ core, nft, move: vm.move, prefix: base.info.bech32Prefix });
  return [createNftTransferMsgModule(nft)];
}
