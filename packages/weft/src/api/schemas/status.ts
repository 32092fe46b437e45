import { Type } from 'typebox';

export const StatusResponse = Type.Object({
  version: Type.String(),
  commit_hash: Type.String(),
  chain_id: Type.String(),
  height: Type.Integer({ description: 'Latest indexed block' }),
  internal_tx_height: Type.Optional(
    Type.Integer({ description: 'EVM with internal txs: latest traced height' }),
  ),
  rich_list_height: Type.Optional(Type.Integer({ description: 'EVM: height the rich list is at' })),
  internal_tx_lag: Type.Optional(
    Type.Integer({
      description:
        'EVM with internal txs: indexed blocks whose internal txs are not indexed yet ' +
        '(height − internal_tx_height; 0 when caught up)',
    }),
  ),
  rich_list_lag: Type.Optional(
    Type.Integer({
      description:
        'EVM, once the rich list has its snapshot: indexed blocks the rich list has not applied yet ' +
        '(height − rich_list_height)',
    }),
  ),
  chain_height: Type.Optional(
    Type.Integer({
      description:
        "The chain's latest height as its REST node reported it at most a second ago (left out when " +
        'the node does not answer; not in rollytics)',
    }),
  ),
  lag: Type.Optional(
    Type.Integer({ description: 'Blocks the chain is ahead of the index (chain_height − height, ≥ 0)' }),
  ),
});
