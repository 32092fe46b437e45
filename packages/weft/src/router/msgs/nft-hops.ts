import { bcs, concatBytes, uleb128 } from '../../chain/bcs.js';
import { collectionAddress, padMoveAddress, STD_ADDRESS } from '../../chain/move-object.js';
import { ibcHash } from '../../protocol/ics20.js';
import { NoRouteError, RouteRequestError } from '../errors.js';
import type { NftChannel } from '../registry/types.js';

/**
 * ICS-721 class paths across hops, and the L1's move hook that sends a class on: how a rollup's NFT reaches
 * another rollup through the L1, the way initia's `ibc-hooks` and `0x1::nft_transfer` do it.
 */

/** The move hook the first hop calls on the L1 (`initia_std::nft_transfer::nft_transfer`). */
export const NFT_FORWARD_FUNCTION = '0x1::nft_transfer::nft_transfer';

/** `<port>/<channel>` at the head of a class path (`nft-transfer/channel-3/move/…`), if it is one. */
export function firstHop(path: string | undefined): { portId: string; channelId: string } | undefined {
  const match = path?.match(/^([^/]+)\/(channel-\d+)(?:\/|$)/);
  return match ? { portId: match[1]!, channelId: match[2]! } : undefined;
}

/**
 * The class path the far chain of `end` holds after a send of `path` over it: the path without its first
 * hop when the class came in over that channel (ICS-721 unwinds), else the far end's port and channel
 * prepended (`DestPort/DestChannel/<path>`).
 */
export function pathOnArrival(end: NftChannel, path: string): string {
  const came = firstHop(path);
  if (came && came.portId === end.portId && came.channelId === end.channelId)
    return path.slice(`${end.portId}/${end.channelId}/`.length);
  if (!end.counterpartyPortId || !end.counterpartyChannelId)
    throw new NoRouteError(
      `the registry does not name the far end of ICS-721 channel ${end.portId}/${end.channelId} to ${end.counterpartyChainId}`,
    );
  return `${end.counterpartyPortId}/${end.counterpartyChannelId}/${path}`;
}

/**
 * The collection object a Move chain holds a class path in: a class of its own (`move/<object>`) is that
 * object; one that came by IBC is the collection `0x1` created under the class's `ibc/<hash>` name.
 */
export function moveCollectionOf(path: string): Uint8Array {
  if (firstHop(path)) return collectionAddress(STD_ADDRESS, ibcHash(path));
  const own = path.match(/^move\/([0-9a-fA-F]{1,64})$/);
  if (!own)
    throw new RouteRequestError(
      `class ${JSON.stringify(path.slice(0, 120))} would return to the L1 as its own, but it is not a Move collection (move/<object>)`,
    );
  return Uint8Array.from(Buffer.from(own[1]!.padStart(64, '0'), 'hex'));
}

export interface NftForward {
  /** The L1 account that gets the NFTs back if the second hop fails or times out. */
  recoverAddress: Uint8Array;
  /** The final receiver, as the destination chain spells it. */
  receiver: string;
  /** The class path as the L1 holds it once the first hop arrived. */
  l1ClassPath: string;
  tokenIds: string[];
  /** The L1's end of the channel to the destination. */
  channel: NftChannel;
  timeoutTimestampNs: bigint;
}

/**
 * The first hop's memo: initia's move hook (`{"move":{"message":MsgExecute}}`, arguments in BCS) that has the
 * L1 call `0x1::nft_transfer::nft_transfer` as the hook's intermediate account, which received the NFTs,
 * sending them on over `channel` and keeping `recoverAddress` for a failed or timed-out second hop.
 */
export function nftForwardMemo(forward: NftForward): string {
  const args = [
    bcs.address(padMoveAddress(forward.recoverAddress)),
    bcs.string(forward.receiver),
    bcs.address(moveCollectionOf(forward.l1ClassPath)),
    concatBytes([uleb128(forward.tokenIds.length), ...forward.tokenIds.map(bcs.string)]),
    bcs.string(forward.channel.portId),
    bcs.string(forward.channel.channelId),
    bcs.u64(0n),
    bcs.u64(0n),
    bcs.u64(forward.timeoutTimestampNs),
    bcs.string(''),
  ];
  const [moduleAddress, moduleName, functionName] = NFT_FORWARD_FUNCTION.split('::');
  return JSON.stringify({
    move: {
      message: {
        module_address: moduleAddress,
        module_name: moduleName,
        function_name: functionName,
        type_args: [],
        args: args.map((a) => Buffer.from(a).toString('base64')),
      },
    },
  });
}
