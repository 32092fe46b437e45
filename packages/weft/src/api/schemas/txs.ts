import { type Static, Type } from 'typebox';
import { nullable, PaginationResponse } from './common.js';

const FreeObject = Type.Object({}, { additionalProperties: true });

export const EventAttribute = Type.Object({
  key: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  index: Type.Optional(Type.Boolean()),
});

/** ABCI event in CometBFT JSON (`omitempty`: empty fields are left out). */
export const Event = Type.Object({
  type: Type.Optional(Type.String()),
  attributes: Type.Optional(Type.Array(EventAttribute)),
});

/** rollytics' `types.Tx` (kvindexer's TxResponse without `@type` on `tx`). */
export const Tx = Type.Object({
  txhash: Type.String({ description: 'Uppercase hex of sha256(tx bytes)' }),
  height: Type.String({ description: 'Block height as text' }),
  codespace: Type.String(),
  code: Type.Integer({ description: '0 on success' }),
  data: Type.String({ description: 'Uppercase hex of the result data' }),
  raw_log: Type.String(),
  logs: Type.Array(Type.Unknown()),
  info: Type.String(),
  gas_wanted: Type.String(),
  gas_used: Type.String(),
  tx: Type.Object(
    {
      body: nullable(FreeObject),
      auth_info: nullable(FreeObject),
      signatures: nullable(Type.Array(Type.String())),
    },
    { description: 'The tx as Cosmos REST renders it' },
  ),
  timestamp: Type.String({ description: 'Block time, RFC 3339 with nanoseconds' }),
  events: Type.Array(Event),
});

/** Records are stored as the indexer rendered them; the response schema serialises them. */
export type TxRecord = Static<typeof Tx>;

export const TxsResponse = Type.Object({ txs: Type.Array(Tx), pagination: PaginationResponse });
export const TxResponse = Type.Object({ tx: Tx });

export const EvmLog = Type.Object({
  address: Type.String(),
  topics: nullable(Type.Array(Type.String())),
  data: Type.String(),
  blockNumber: Type.String(),
  transactionHash: Type.String(),
  transactionIndex: Type.String(),
  blockHash: Type.String(),
  logIndex: Type.String(),
  removed: Type.Boolean(),
});

/** The receipt of `eth_getBlockReceipts`, reduced to rollytics' `types.EvmTx` keys. */
export const EvmTx = Type.Object({
  blockHash: Type.String(),
  blockNumber: Type.String(),
  contractAddress: nullable(Type.String()),
  cumulativeGasUsed: Type.String(),
  effectiveGasPrice: Type.String(),
  from: Type.String(),
  gasUsed: Type.String(),
  logs: nullable(Type.Array(EvmLog)),
  logsBloom: Type.String(),
  status: Type.String(),
  to: Type.String({ description: 'Empty for contract creations' }),
  transactionHash: Type.String(),
  transactionIndex: Type.String(),
  type: Type.String(),
});

export type EvmTxRecord = Static<typeof EvmTx>;

export const EvmTxsResponse = Type.Object({ txs: Type.Array(EvmTx), pagination: PaginationResponse });
export const EvmTxResponse = Type.Object({ tx: EvmTx });

export const InternalTx = Type.Object({
  height: Type.Integer(),
  hash: Type.String({ description: 'Ethereum hash of the tx the call belongs to' }),
  parent_index: Type.Integer({ description: '-1 for the top call' }),
  index: Type.Integer({ description: 'Depth-first position within the tx' }),
  type: Type.String({ description: 'CALL, CREATE, DELEGATECALL, STATICCALL, …' }),
  from: Type.String(),
  to: Type.String(),
  input: Type.String(),
  output: Type.String(),
  value: Type.String(),
  gas: Type.String(),
  gasUsed: Type.String(),
});

export const InternalTxsResponse = Type.Object({
  internal_txs: Type.Array(InternalTx),
  pagination: PaginationResponse,
});
