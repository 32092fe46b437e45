import { describe, expect, it } from 'vitest';
import { planChannels, registryIbcFile } from './network.js';

describe('channel plan of a network', () => {
  it('numbers channels per chain in link order and names both ends', () => {
    const l1 = { chainId: 'weft-l1-1', prefix: 'init' };
    const move = { chainId: 'weft-move-1', prefix: 'init' };
    const cosmos = { chainId: 'weft-cosmos-1', prefix: 'cosmos' };
    const plan = planChannels([
      [l1, move],
      [l1, cosmos],
    ]);
    expect(plan.channels.get('weft-l1-1')).toEqual([
      {
        channelId: 'channel-0',
        counterparty: { chainId: 'weft-move-1', channelId: 'channel-0', prefix: 'init' },
      },
      {
        channelId: 'channel-1',
        counterparty: { chainId: 'weft-cosmos-1', channelId: 'channel-0', prefix: 'cosmos' },
      },
    ]);
    expect(plan.channels.get('weft-cosmos-1')).toEqual([
      {
        channelId: 'channel-0',
        counterparty: { chainId: 'weft-l1-1', channelId: 'channel-1', prefix: 'init' },
      },
    ]);
    const file = registryIbcFile(plan.links[1]!, (id) => id.split('-')[1]!);
    expect(file.chain_1).toEqual({
      chain_name: 'l1',
      client_id: '07-tendermint-1',
      connection_id: 'connection-1',
    });
    expect(file.channels[0]!.chain_2).toEqual({ channel_id: 'channel-0', port_id: 'transfer' });
  });
});
