import { describe, expect, it } from 'vitest';
import { planChannels, registryIbcFile } from './network.js';

describe('channel plan of a network', () => {
  it('numbers channels per chain in link order and names both ends and their ports', () => {
    const l1 = { chainId: 'weft-l1-1', prefix: 'init' };
    const move = { chainId: 'weft-move-1', prefix: 'init' };
    const cosmos = { chainId: 'weft-cosmos-1', prefix: 'cosmos' };
    const plan = planChannels([
      [l1, move],
      [l1, cosmos],
      [l1, move, { ports: ['nft-transfer', 'nft-transfer'], version: 'ics721-1' }],
    ]);
    const transfer = { port: 'transfer', version: 'ics20-1' };
    expect(plan.channels.get('weft-l1-1')).toEqual([
      {
        channelId: 'channel-0',
        ...transfer,
        counterparty: { chainId: 'weft-move-1', channelId: 'channel-0', prefix: 'init', port: 'transfer' },
      },
      {
        channelId: 'channel-1',
        ...transfer,
        counterparty: {
          chainId: 'weft-cosmos-1',
          channelId: 'channel-0',
          prefix: 'cosmos',
          port: 'transfer',
        },
      },
      {
        channelId: 'channel-2',
        port: 'nft-transfer',
        version: 'ics721-1',
        counterparty: {
          chainId: 'weft-move-1',
          channelId: 'channel-1',
          prefix: 'init',
          port: 'nft-transfer',
        },
      },
    ]);
    expect(plan.channels.get('weft-cosmos-1')).toEqual([
      {
        channelId: 'channel-0',
        ...transfer,
        counterparty: { chainId: 'weft-l1-1', channelId: 'channel-1', prefix: 'init', port: 'transfer' },
      },
    ]);
    const file = registryIbcFile(plan.links[1]!, (id) => id.split('-')[1]!);
    expect(file.chain_1).toEqual({
      chain_name: 'l1',
      client_id: '07-tendermint-1',
      connection_id: 'connection-1',
    });
    expect(file.channels[0]!.chain_2).toEqual({ channel_id: 'channel-0', port_id: 'transfer' });
    expect(registryIbcFile(plan.links[2]!, (id) => id).channels[0]).toMatchObject({
      chain_1: { channel_id: 'channel-2', port_id: 'nft-transfer' },
      chain_2: { channel_id: 'channel-1', port_id: 'nft-transfer' },
      version: 'ics721-1',
    });
  });
});
