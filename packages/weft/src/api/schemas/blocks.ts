import { Type } from 'typebox';
import { PaginationResponse } from './common.js';

export const Coin = Type.Object({ denom: Type.String(), amount: Type.String() });

export const Proposer = Type.Object({
  moniker: Type.String({ description: 'Empty when the chain REST could not be asked' }),
  identity: Type.String(),
  operator_address: Type.String(),
});

/** Every number is text; `timestamp` is RFC 3339 to the second. */
export const Block = Type.Object({
  chain_id: Type.String(),
  height: Type.String(),
  hash: Type.String({ description: 'Uppercase hex' }),
  block_time: Type.String({ description: 'Milliseconds since the previous block' }),
  timestamp: Type.String(),
  gas_used: Type.String(),
  gas_wanted: Type.String(),
  tx_count: Type.String(),
  total_fee: Type.Array(Coin),
  proposer: Proposer,
});

export const BlocksResponse = Type.Object({ blocks: Type.Array(Block), pagination: PaginationResponse });
export const BlockResponse = Type.Object({ block: Block });
export const AvgBlockTimeResponse = Type.Object({
  avg_block_time: Type.Number({ description: 'Seconds, over the latest 100 blocks' }),
});
