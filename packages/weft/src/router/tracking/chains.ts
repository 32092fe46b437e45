import type { RouterChain } from '../registry/types.js';
import type { TrackedChain } from './types.js';

/** A registry chain as the tracker follows it: its node URLs and its place in the bridges. */
export function trackedChain(chain: RouterChain): TrackedChain {
  return {
    chainId: chain.chainId,
    kind: chain.kind,
    ...(chain.rpc ? { rpc: chain.rpc } : {}),
    ...(chain.rest ? { rest: chain.rest } : {}),
    ...(chain.jsonRpc ? { jsonRpc: chain.jsonRpc } : {}),
    isL1: chain.isL1,
    ...(chain.opBridgeId ? { opBridgeId: chain.opBridgeId } : {}),
    ...(chain.omnichain ? { omnichainEid: chain.omnichain.eid } : {}),
    ...(chain.ibcChannels.length > 0
      ? { ibcPeers: Object.fromEntries(chain.ibcChannels.map((c) => [c.channelId, c.counterpartyChainId])) }
      : {}),
  };
}
