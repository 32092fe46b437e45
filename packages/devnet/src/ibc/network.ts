import { TRANSFER_PORT, TRANSFER_VERSION } from 'weft/protocol/ics20.js';
import type { IbcChannelConfig } from './setup.js';

/**
 * The transfer channels of a network: ids handed out per chain in the order the links are listed (as
 * opening them one after the other would), and the initia-registry `_IBC/<a>-<b>.json` file of each link.
 */

export interface ChainRef {
  chainId: string;
  /** bech32 prefix of the chain's accounts. */
  prefix: string;
}

export interface PlannedLink {
  a: { chainId: string; channelId: string; connectionId: string; clientId: string; port: string };
  b: { chainId: string; channelId: string; connectionId: string; clientId: string; port: string };
  version: string;
}

/** The application a link carries: ICS-20 `transfer` by default, or ICS-721 with each end's port. */
export interface LinkApp {
  ports: [string, string];
  version: string;
}

export interface ChannelPlan {
  links: PlannedLink[];
  /** `withIbc`'s channels of each chain, by chain id. */
  channels: Map<string, IbcChannelConfig[]>;
}

export function planChannels(links: Array<[ChainRef, ChainRef, LinkApp?]>): ChannelPlan {
  const next = new Map<string, number>();
  const take = (chainId: string) => {
    const n = next.get(chainId) ?? 0;
    next.set(chainId, n + 1);
    return {
      chainId,
      channelId: `channel-${n}`,
      connectionId: `connection-${n}`,
      clientId: `07-tendermint-${n}`,
    };
  };
  const channels = new Map<string, IbcChannelConfig[]>();
  const add = (chainId: string, config: IbcChannelConfig) =>
    channels.set(chainId, [...(channels.get(chainId) ?? []), config]);
  const planned: PlannedLink[] = [];
  for (const [left, right, app] of links) {
    const [portA, portB] = app?.ports ?? [TRANSFER_PORT, TRANSFER_PORT];
    const version = app?.version ?? TRANSFER_VERSION;
    const a = { ...take(left.chainId), port: portA };
    const b = { ...take(right.chainId), port: portB };
    planned.push({ a, b, version });
    add(left.chainId, {
      channelId: a.channelId,
      port: portA,
      version,
      counterparty: { chainId: b.chainId, channelId: b.channelId, prefix: right.prefix, port: portB },
    });
    add(right.chainId, {
      channelId: b.channelId,
      port: portB,
      version,
      counterparty: { chainId: a.chainId, channelId: a.channelId, prefix: left.prefix, port: portA },
    });
  }
  return { links: planned, channels };
}

/** An initia-registry IBC file (`_IBC/<chain_1>-<chain_2>.json`); `nameOf` maps chain ids to chain names. */
export function registryIbcFile(link: PlannedLink, nameOf: (chainId: string) => string) {
  const side = (s: PlannedLink['a']) => ({
    chain_name: nameOf(s.chainId),
    client_id: s.clientId,
    connection_id: s.connectionId,
  });
  return {
    $schema: '../ibc_data.schema.json',
    chain_1: side(link.a),
    chain_2: side(link.b),
    channels: [
      {
        chain_1: { channel_id: link.a.channelId, port_id: link.a.port },
        chain_2: { channel_id: link.b.channelId, port_id: link.b.port },
        ordering: 'unordered',
        version: link.version,
        tags: { status: 'live', preferred: true },
      },
    ],
  };
}
