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
});
