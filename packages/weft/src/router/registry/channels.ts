import type { RawFile, RegistryWarn } from './read.js';
import type { IbcChannel, RouterChain } from './types.js';

/**
 * A channel's application version: `ics20-1`, `ics721-1`, or the `app_version` inside the JSON that an
 * ICS-29 fee middleware wraps it in (`{"fee_version":"ics29-1","app_version":"ics20-1"}`).
 */
export function appVersion(version: unknown): string | undefined {
  if (typeof version !== 'string') return undefined;
  if (!version.trimStart().startsWith('{')) return version;
  try {
    const parsed = JSON.parse(version);
    return typeof parsed?.app_version === 'string' ? parsed.app_version : undefined;
  } catch {
    return undefined;
  }
}

/** An ICS-721 end: the `nft-transfer` module's port, or any port (a `wasm.<ics721>` one) with an `ics721-1` app. */
export const isIcs721 = (portId: unknown, version: unknown): boolean =>
  portId === 'nft-transfer' || appVersion(version) === 'ics721-1';

/** An ICS-20 end: the `transfer` port with an `ics20-1` app (a registry that gives no version means it). */
const isIcs20 = (portId: unknown, version: unknown): boolean =>
  portId === 'transfer' && appVersion(version ?? 'ics20-1') === 'ics20-1';

/**
 * The ICS-20 channel ends of a chain.json's `metadata.ibc_channels`. ICS-721 ends are read elsewhere
 * (`nft-channels.ts`); an end missing a field, or of another port or app (`icahost`, a cw20-ics20
 * contract's `wasm.<addr>`), is skipped with a warning.
 */
export function readIbcChannels(raw: any, source: string, warn: RegistryWarn): IbcChannel[] {
  const listed = raw?.metadata?.ibc_channels;
  if (listed === undefined) return [];
  if (!Array.isArray(listed)) {
    warn(`${source}: metadata.ibc_channels is not a list: skipped`);
    return [];
  }
  const out: IbcChannel[] = [];
  for (const [i, c] of listed.entries()) {
    const name = `${source}: metadata.ibc_channels[${i}]`;
    if (
      typeof c?.chain_id !== 'string' ||
      typeof c.port_id !== 'string' ||
      typeof c.channel_id !== 'string'
    ) {
      warn(`${name} lacks chain_id, port_id or channel_id: skipped`);
      continue;
    }
    if (isIcs721(c.port_id, c.version)) continue;
    if (!isIcs20(c.port_id, c.version)) {
      warn(
        `${name}: port ${c.port_id} with version ${JSON.stringify(c.version)} is neither ICS-20 transfer nor ICS-721: skipped`,
      );
      continue;
    }
    out.push({
      counterpartyChainId: c.chain_id,
      portId: 'transfer',
      channelId: c.channel_id,
      version: String(c.version ?? 'ics20-1'),
    });
  }
  return out;
}

/**
 * The `_IBC/*.json` pair files whose two chains the registry lists, each channel with both ends named;
 * a file naming another chain (or none) and a channel missing an end are skipped with a warning.
 */
export function checkIbcFiles(files: RawFile[], chainNames: Set<string>, warn: RegistryWarn): RawFile[] {
  const out: RawFile[] = [];
  for (const file of files) {
    const names = [file.json?.chain_1?.chain_name, file.json?.chain_2?.chain_name];
    const unknown = names.filter((n) => typeof n !== 'string' || !chainNames.has(n));
    if (unknown.length > 0) {
      warn(
        `${file.source}: names ${unknown.map((n) => JSON.stringify(n)).join(' and ')}, not a chain_name of the registry: skipped`,
      );
      continue;
    }
    const channels: any[] = Array.isArray(file.json.channels) ? file.json.channels : [];
    const kept = channels.filter((channel, i) => {
      const ends = [channel?.chain_1, channel?.chain_2];
      const whole = ends.every((e) => typeof e?.channel_id === 'string' && typeof e.port_id === 'string');
      if (!whole) warn(`${file.source}: channels[${i}] lacks a port_id or channel_id: skipped`);
      return whole;
    });
    out.push({ source: file.source, json: { ...file.json, channels: kept } });
  }
  return out;
}

/** Fills in each channel end's far channel id: from `_IBC` files, else from the far chain's own entry. */
export function joinChannels(chains: RouterChain[], ibcFiles: RawFile[]): void {
  const byName = new Map(chains.map((c) => [c.chainName, c]));
  const far = new Map<string, string>();
  for (const { json } of ibcFiles) {
    const a = byName.get(json.chain_1.chain_name)!;
    const b = byName.get(json.chain_2.chain_name)!;
    for (const channel of json.channels) {
      if (!isIcs20(channel.chain_1.port_id, channel.version) || channel.chain_2.port_id !== 'transfer')
        continue;
      far.set(`${a.chainId}/${channel.chain_1.channel_id}`, channel.chain_2.channel_id);
      far.set(`${b.chainId}/${channel.chain_2.channel_id}`, channel.chain_1.channel_id);
    }
  }
  const byId = new Map(chains.map((c) => [c.chainId, c]));
  for (const chain of chains) {
    for (const end of chain.ibcChannels) {
      end.counterpartyChannelId = far.get(`${chain.chainId}/${end.channelId}`);
      if (end.counterpartyChannelId) continue;
      // Without an _IBC file: the far chain's only transfer channel back to this chain.
      const back = byId
        .get(end.counterpartyChainId)
        ?.ibcChannels.filter((c) => c.counterpartyChainId === chain.chainId);
      if (back?.length === 1) end.counterpartyChannelId = back[0]!.channelId;
    }
  }
  // Ends towards chains the registry does not list (Noble, Osmosis…) carry no route.
  for (const chain of chains)
    chain.ibcChannels = chain.ibcChannels.filter(
      (c) => c.counterpartyChannelId && byId.has(c.counterpartyChainId),
    );
}
