import { type TSchema, Type } from 'typebox';
import { TRANSACTION_STATES, type TransactionState } from './types.js';

/** Request and response schemas of the tracking routes (Skip Go API v2 `TrackTx*` and `StatusTx*`). */

const nullable = <T extends TSchema>(schema: T) => Type.Unsafe<unknown>({ ...schema, nullable: true });

export const TrackRequest = Type.Object({
  tx_hash: Type.String({ description: 'Hex hash of the source tx (Cosmos or EVM, with or without 0x)' }),
  chain_id: Type.String({ description: 'Chain id of the source tx' }),
});

export const TrackResponse = Type.Object({
  tx_hash: Type.String(),
  explorer_link: Type.String(),
});

export const StatusQuery = Type.Object({
  tx_hash: Type.String(),
  chain_id: Type.String(),
});

/** Most transfers `GET /v2/tx/recent` answers at once, and how many unless told. */
export const RECENT_MAX = 100;
export const RECENT_DEFAULT = 20;

export const RecentQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: RECENT_MAX,
      default: RECENT_DEFAULT,
      description: 'How many, 1 … 100',
    }),
  ),
  chain_id: Type.Optional(
    Type.String({ minLength: 1, description: 'Only transfers from this source chain' }),
  ),
  state: Type.Optional(
    Type.Unsafe<TransactionState>({
      type: 'string',
      enum: [...TRANSACTION_STATES],
      description: 'Only transfers in this state',
    }),
  ),
});

export const RecentResponse = Type.Object({
  transfers: Type.Array(
    Type.Object({
      chain_id: Type.String({ description: 'Chain id of the source tx' }),
      tx_hash: Type.String({
        description: 'The source tx, lowercase hex without 0x (as /v2/tx/status takes it)',
      }),
      state: Type.String({ description: 'The `state` `GET /v2/tx/status` answers for it' }),
      created_at: Type.String({ description: 'When it was first tracked, RFC 3339 UTC' }),
      updated_at: Type.String({ description: 'When its state or evidence last changed, RFC 3339 UTC' }),
    }),
    { description: 'Newest first (the last tracked first)' },
  ),
});

const ChainTransaction = nullable(
  Type.Object({
    chain_id: Type.String(),
    tx_hash: Type.String(),
    explorer_link: Type.String(),
    on_chain_at: Type.String({ description: 'RFC 3339 UTC' }),
  }),
);

const Details = nullable(Type.Object({ code: Type.Integer(), message: Type.String() }));

const StatusError = nullable(
  Type.Object({
    type: Type.String({ description: 'STATUS_ERROR_TRANSACTION_EXECUTION | STATUS_ERROR_TRANSFER | …' }),
    message: Type.String(),
    details: Type.Optional(Details),
  }),
);

const Ends = {
  from_chain_id: Type.String(),
  to_chain_id: Type.String({ description: 'Empty until the destination is known' }),
};

const IbcTransfer = Type.Object({
  ...Ends,
  src_chain_id: Type.String(),
  dst_chain_id: Type.String(),
  state: Type.String({
    description: 'TRANSFER_PENDING | TRANSFER_RECEIVED | TRANSFER_SUCCESS | TRANSFER_FAILURE',
  }),
  packet_txs: Type.Object({
    send_tx: ChainTransaction,
    receive_tx: ChainTransaction,
    acknowledge_tx: ChainTransaction,
    timeout_tx: ChainTransaction,
    error: nullable(
      Type.Object({
        type: Type.String({ description: 'PACKET_ERROR_ACKNOWLEDGEMENT | PACKET_ERROR_TIMEOUT' }),
        message: Type.String(),
        details: Details,
      }),
    ),
  }),
});

const OpinitTransfer = Type.Object({
  ...Ends,
  state: Type.String({ description: 'OPINIT_TRANSFER_SENT | OPINIT_TRANSFER_RECEIVED' }),
  txs: Type.Object({ send_tx: ChainTransaction, receive_tx: ChainTransaction }),
  op_init_bridge_id: nullable(Type.String()),
  direction: Type.String({ description: 'deposit | withdrawal' }),
  sequence: Type.String({ description: 'l1_sequence of a deposit, l2_sequence of a withdrawal' }),
  success: nullable(Type.Boolean({ description: 'finalize_token_deposit `success` (the hook result)' })),
  reason: nullable(Type.String()),
});

const LayerZeroTransfer = Type.Object({
  ...Ends,
  state: Type.String({ description: 'LAYER_ZERO_TRANSFER_SENT | LAYER_ZERO_TRANSFER_RECEIVED' }),
  txs: Type.Object({
    send_tx: ChainTransaction,
    receive_tx: ChainTransaction,
    compose_tx: ChainTransaction,
    error_tx: ChainTransaction,
  }),
  guid: Type.String(),
  nonce: Type.String(),
  src_eid: Type.Integer(),
  dst_eid: Type.Integer(),
});

const TransferEvent = Type.Object({
  ibc_transfer: Type.Optional(IbcTransfer),
  op_init_transfer: Type.Optional(OpinitTransfer),
  layer_zero_transfer: Type.Optional(LayerZeroTransfer),
});

const NextBlocking = nullable(Type.Object({ transfer_sequence_index: Type.Integer() }));

const AssetRelease = nullable(
  Type.Object({
    chain_id: Type.String(),
    denom: Type.Optional(Type.String()),
    amount: Type.Optional(nullable(Type.String())),
    released: Type.Boolean(),
  }),
);

/** weft's own: what a pending transfer waits on that will happen (`waiting.ts`); it is not abandoned meanwhile. */
const WaitingFor = nullable(
  Type.Object({
    type: Type.String({ description: 'OPINIT_FINALIZATION | IBC_RELAY' }),
    transfer_sequence_index: Type.Integer({
      description: "The hop's index in this transfer's transfer_sequence",
    }),
    chain_id: Type.String({
      description: 'Where it will happen: the L1 of the claim, the destination of the packet',
    }),
    op_init_bridge_id: Type.Optional(nullable(Type.String())),
    l2_sequence: Type.Optional(Type.String({ description: "The withdrawal's (or refund's) l2_sequence" })),
    timeout_height: Type.Optional(nullable(Type.String({ description: '<revision>-<height>' }))),
    timeout_timestamp: Type.Optional(
      nullable(Type.String({ description: "ns of the destination's block time" })),
    ),
  }),
);

const State = Type.String({
  description:
    'STATE_SUBMITTED | STATE_PENDING | STATE_PENDING_ERROR | STATE_COMPLETED_SUCCESS | STATE_COMPLETED_ERROR | STATE_ABANDONED',
});

export const StatusResponse = Type.Object({
  transfers: Type.Array(
    Type.Object({
      state: State,
      transfer_sequence: Type.Array(TransferEvent),
      next_blocking_transfer: NextBlocking,
      transfer_asset_release: AssetRelease,
      error: StatusError,
      waiting_for: WaitingFor,
    }),
  ),
  state: State,
  transfer_sequence: Type.Array(TransferEvent, {
    description: 'Every transfer event, flattened (deprecated by Skip)',
  }),
  next_blocking_transfer: NextBlocking,
  transfer_asset_release: AssetRelease,
  error: StatusError,
  status: Type.String({ description: '`STATE_COMPLETED` once the state is terminal, else the state' }),
});

export const ErrorResponse = Type.Object({
  code: Type.Integer({
    description:
      'gRPC status code (3 invalid argument, 5 not found, 8 too many requests, 13 internal, 14 unavailable)',
  }),
  message: Type.String(),
  details: Type.Array(Type.Unknown()),
});
