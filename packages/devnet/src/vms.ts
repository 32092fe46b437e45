import { sha256 } from '@noble/hashes/sha2.js';
import { toBech32 } from 'weft/chain/address.js';
import type { Logger } from 'weft/common/logger.js';
import { NFT_TRANSFER_PORT } from 'weft/protocol/ics721.js';
import type { VmBase, VmParts } from './dev-chain.js';
import { createNftTransferModule } from './ibc/nft-transfer.js';
import { createMoveNftModule } from './move/module.js';
import { moveOmnichain } from './omnichain/move-parts.js';
import type { OmnichainSetup } from './omnichain/network.js';
import { nftReceivePlan } from './traffic/ibc-nft.js';
import { moveNftPlan } from './traffic/move.js';
import { omnichainMovePlan } from './traffic/omnichain.js';
import { cw721Plan } from './traffic/wasm.js';
import type { VmType } from './types.js';
import { createCw721Module } from './wasm/module.js';

export interface VmPartsInput extends VmBase {
  seed: string;
  logger: Logger;
  /** This chain's place in the omnichain bridge, when it takes part (EVM chains deploy its contracts). */
  omnichain?: OmnichainSetup;
}

/** The modules, bank, traffic and node extensions each VM adds to the common rollup. */
export async function vmParts(vm: VmType, input: VmPartsInput): Promise<VmParts> {
  switch (vm) {
    case 'move':
      return moveParts(input);
    case 'wasm':
      return wasmParts(input);
    case 'evm':
      return (await import('./evm/parts.js')).evmParts(input);
  }
}

/** The ICS-721 contract of a Wasm rollup; its IBC port is `wasm.<address>`. */
export const ics721Contract = (chainId: string, prefix: string) =>
  toBech32(prefix, sha256(new TextEncoder().encode(`${chainId}/ics721`)));

function moveParts(input: VmPartsInput): VmParts {
  const { info, store, auth, accounts, relayer } = input;
  const moveNft = createMoveNftModule({ prefix: info.bech32Prefix, store, auth });
  const nftTransfer = createNftTransferModule({
    vm: 'move',
    prefix: info.bech32Prefix,
    move: moveNft.executor,
    auth,
  });
  const omnichain = input.omnichain ? moveOmnichain(input, input.omnichain) : undefined;
  return {
    modules: [omnichain ? omnichain.wrap(moveNft.module) : moveNft.module, nftTransfer.module],
    plans: [
      moveNftPlan(accounts),
      nftReceivePlan({ relayer, accounts, destinationPort: NFT_TRANSFER_PORT }),
      ...(input.omnichain ? [omnichainMovePlan({ setup: input.omnichain, accounts })] : []),
    ],
    extensions: { move: omnichain ? omnichain.node(moveNft.node) : moveNft.node },
    ics721: { kind: 'move', move: moveNft.executor },
    ...(omnichain ? { genesis: (ctx) => omnichain.genesis(ctx, accounts) } : {}),
  };
}

function wasmParts(input: VmPartsInput): VmParts {
  const { info, store, auth, bank, accounts, relayer } = input;
  const cw721 = createCw721Module({
    prefix: info.bech32Prefix,
    store,
    auth,
    bank,
    blockTimeNanos: input.blockTimeNanos,
  });
  const ics721 = ics721Contract(info.chainId, info.bech32Prefix);
  const nftTransfer = createNftTransferModule({
    vm: 'wasm',
    prefix: info.bech32Prefix,
    wasm: cw721.keeper,
    ics721,
    auth,
  });
  return {
    modules: [cw721.module, nftTransfer.module],
    plans: [cw721Plan(accounts), nftReceivePlan({ relayer, accounts, destinationPort: nftTransfer.port })],
    extensions: { wasm: cw721.node },
    ics721: { kind: 'wasm', wasm: cw721.keeper, ics721 },
  };
}
