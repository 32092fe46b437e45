import { isIcs721 } from './channels.js';
import type { NftChannel, RouterChain } from './types.js';

interface RawEnd {
  chain_id?: unknown;
  port_id?: unknown;
  channel_id?: unknown;
  version?: unknown;
}

/**
 * Every chain's ICS-721 channel ends, from `metadata.ibc_channels` of its chain.json and from the
 * `_IBC/*.json` pair files (which name both ends and their ports). Ends towards chains the registry does
 * not list are dropped; a chain.json end without a pair file takes the far chain's only ICS-721 end back.
 */
export function readNftChannels(chains: RouterChain[], rawChains: any[], ibcFiles: any[]): void {
  const byId = new Map(chains.map((c) => [c.chainId, c]));
  const byName = new Map(chains.map((c) => [c.chainName, c]));
  const ends = new Map<string, Map<string, NftChannel>>(chains.map((c) => [c.chainId, new Map()]));
  const put = (chainId: string, end: NftChannel) => {
    const known = ends.get(chainId)?.get(end.channelId);
    // Keys absent from a chain.json end keep what a pair file said of the far end.
    ends.get(chainId)?.set(end.channelId, { ...known, ...end });
  };

  for (const raw of rawChains) {
    const chainId = String(raw?.chain_id);
    const listed: RawEnd[] = Array.isArray(raw?.metadata?.ibc_channels) ? raw.metadata.ibc_channels : [];
    for (const c of listed) {
      if (!isIcs721(c.port_id, c.version) || typeof c.channel_id !== 'string') continue;
      const port = String(c.port_id);
      // interwoven-1 lists its end towards a Wasm rollup with the rollup's contract port: a chain without
      // CosmWasm binds ICS-721 to its nft-transfer module, so that port is the far end's.
      const farPort = port.startsWith('wasm.') && byId.get(chainId)?.minitia !== 'miniwasm';
      put(chainId, {
        counterpartyChainId: String(c.chain_id),
        portId: farPort ? 'nft-transfer' : port,
        channelId: c.channel_id,
        ...(farPort ? { counterpartyPortId: port } : {}),
        version: String(c.version ?? 'ics721-1'),
      });
    }
  }
  for (const file of ibcFiles) {
    const a = byName.get(file?.chain_1?.chain_name);
    const b = byName.get(file?.chain_2?.chain_name);
    if (!a || !b) continue;
    for (const channel of Array.isArray(file.channels) ? file.channels : []) {
      const one = channel?.chain_1;
      const two = channel?.chain_2;
      if (typeof one?.channel_id !== 'string' || typeof two?.channel_id !== 'string') continue;
      if (!isIcs721(one.port_id, channel.version) && !isIcs721(two.port_id, channel.version)) continue;
      const version = String(channel.version ?? 'ics721-1');
      put(a.chainId, pair(b.chainId, one, two, version));
      put(b.chainId, pair(a.chainId, two, one, version));
    }
  }

  for (const chain of chains) {
    const own = [...ends.get(chain.chainId)!.values()].filter((end) => byId.has(end.counterpartyChainId));
    chain.nftChannels = own.sort((x, y) => x.channelId.localeCompare(y.channelId, 'en', { numeric: true }));
  }
  for (const chain of chains) {
    for (const end of chain.nftChannels) {
      if (end.counterpartyChannelId) continue;
      const back = byId
        .get(end.counterpartyChainId)!
        .nftChannels.filter((c) => c.counterpartyChainId === chain.chainId);
      if (back.length !== 1) continue;
      end.counterpartyChannelId = back[0]!.channelId;
      end.counterpartyPortId = back[0]!.portId;
    }
  }
}

const pair = (farChainId: string, near: any, far: any, version: string): NftChannel => ({
  counterpartyChainId: farChainId,
  portId: String(near.port_id),
  channelId: near.channel_id,
  counterpartyPortId: String(far.port_id),
  counterpartyChannelId: far.channel_id,
  version,
});
