import { Type } from 'typebox';

/** Request and response schemas of the router API (Skip Go API v2 wire format, snake_case). */

const Uint = Type.String({ pattern: '^[0-9]{1,78}$', description: 'Amount in base units, decimal' });
const Id = Type.String({ minLength: 1, maxLength: 128 });
const Denom = Type.String({ minLength: 1, maxLength: 256 });

export const ErrorBody = Type.Object(
  {
    code: Type.Integer({
      description:
        'gRPC code: 3 invalid argument, 5 not found, 8 too many requests, 13 internal, 14 unavailable',
    }),
    message: Type.String(),
    details: Type.Array(Type.Unknown()),
    info: Type.Optional(Type.String({ description: 'Initia: a hint shown under a route error' })),
  },
  { description: 'Every non-2xx answer' },
);

export const errorResponses = {
  400: { ...ErrorBody, description: 'Bad input (the message says which)' },
  404: { ...ErrorBody, description: 'Unknown chain or denom, or no route' },
  500: { ...ErrorBody, description: 'Internal error' },
  503: { ...ErrorBody, description: 'A chain node did not answer' },
};

/** `/op-hook` beyond the account funder's cap a minute (with Retry-After). */
export const tooManyResponse = {
  ...ErrorBody,
  description: 'More accounts to create than the router creates a minute; retry after Retry-After seconds',
};

export const RouteRequest = Type.Object(
  {
    source_asset_denom: Denom,
    source_asset_chain_id: Id,
    dest_asset_denom: Denom,
    dest_asset_chain_id: Id,
    amount_in: Type.Optional(Uint),
    amount_out: Type.Optional(Uint),
    is_op_withdraw: Type.Optional(
      Type.Boolean({ description: 'Initia: only routes through an OPinit withdrawal' }),
    ),
    cumulative_affiliate_fee_bps: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    allow_unsafe: Type.Optional(Type.Boolean()),
    allow_multi_tx: Type.Optional(Type.Boolean()),
    allow_swaps: Type.Optional(Type.Boolean()),
    bridges: Type.Optional(Type.Array(Type.String())),
    experimental_features: Type.Optional(Type.Array(Type.String())),
    smart_relay: Type.Optional(Type.Boolean()),
    go_fast: Type.Optional(Type.Boolean()),
  },
  { description: 'Exactly one of amount_in and amount_out' },
);

const Operation = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'One hop: one of transfer, op_init_transfer, layer_zero_transfer, with tx_index, amount_in, amount_out',
});

export const Fee = Type.Object({
  fee_type: Type.Optional(Type.String()),
  bridge_id: Type.Optional(Type.String()),
  amount: Type.String(),
  usd_amount: Type.String(),
  origin_asset: Type.Record(Type.String(), Type.Unknown()),
  chain_id: Type.String(),
  tx_index: Type.Integer(),
  operation_index: Type.Union([Type.Integer(), Type.Null()]),
  fee_behavior: Type.String({ description: 'FEE_BEHAVIOR_DEDUCTED or FEE_BEHAVIOR_ADDITIONAL' }),
});

export const RouteResponse = Type.Object({
  amount_in: Type.String(),
  amount_out: Type.String(),
  source_asset_denom: Type.String(),
  source_asset_chain_id: Type.String(),
  dest_asset_denom: Type.String(),
  dest_asset_chain_id: Type.String(),
  operations: Type.Array(Operation),
  chain_ids: Type.Array(Type.String()),
  required_chain_addresses: Type.Array(Type.String()),
  does_swap: Type.Boolean(),
  estimated_amount_out: Type.String(),
  swap_venues: Type.Array(Type.Unknown()),
  txs_required: Type.Integer(),
  usd_amount_in: Type.String(),
  usd_amount_out: Type.String(),
  estimated_fees: Type.Array(Fee),
  estimated_route_duration_seconds: Type.Integer(),
  required_op_hook: Type.Boolean(),
  extra_infos: Type.Array(Type.String()),
  extra_warnings: Type.Array(Type.String()),
});

const SignedOpHook = Type.Object({
  signer: Type.String(),
  hook: Type.String({ description: 'base64 signed tx' }),
});
const Percent = Type.Union([Type.String({ pattern: '^[0-9]{1,3}(\\.[0-9]{1,6})?$' }), Type.Number()]);
const Seconds = Type.Union([Type.String({ pattern: '^[0-9]{1,7}$' }), Type.Integer({ minimum: 1 })]);

export const MsgsRequest = Type.Object({
  source_asset_denom: Denom,
  source_asset_chain_id: Id,
  dest_asset_denom: Denom,
  dest_asset_chain_id: Id,
  amount_in: Uint,
  amount_out: Type.Optional(Uint),
  address_list: Type.Array(Type.String({ maxLength: 256 }), { maxItems: 16 }),
  operations: Type.Array(Operation, { minItems: 1, maxItems: 16 }),
  slippage_tolerance_percent: Type.Optional(Percent),
  timeout_seconds: Type.Optional(Seconds),
  signed_op_hook: Type.Optional(SignedOpHook),
  estimated_amount_out: Type.Optional(Type.String()),
});

const Tx = Type.Record(Type.String(), Type.Unknown(), {
  description:
    '{cosmos_tx: {chain_id, path, signer_address, msgs: [{msg (amino JSON string), msg_type_url}]}} or {evm_tx: {chain_id, to, value, data (hex, no 0x), required_erc20_approvals, signer_address}}, with operations_indices',
});

export const MsgsResponse = Type.Object({
  msgs: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  txs: Type.Array(Tx),
  min_amount_out: Type.String(),
  estimated_fees: Type.Array(Fee),
});

export const MsgsDirectRequest = Type.Intersect([
  RouteRequest,
  Type.Object({
    chain_ids_to_addresses: Type.Record(Type.String(), Type.String({ maxLength: 256 })),
    slippage_tolerance_percent: Type.Optional(Percent),
    timeout_seconds: Type.Optional(Seconds),
    signed_op_hook: Type.Optional(SignedOpHook),
  }),
]);

export const MsgsDirectResponse = Type.Object({
  msgs: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  txs: Type.Array(Tx),
  min_amount_out: Type.String(),
  route: RouteResponse,
});

export const OpHookRequest = Type.Object({
  source_address: Type.String({ maxLength: 256 }),
  source_asset_chain_id: Id,
  source_asset_denom: Denom,
  dest_address: Type.String({ maxLength: 256 }),
  dest_asset_chain_id: Id,
  dest_asset_denom: Denom,
});

export const OpHookResponse = Type.Object({
  chain_id: Type.String(),
  hook: Type.Array(Type.Object({ msg: Type.String(), msg_type_url: Type.String() })),
});

const ListParam = Type.Union([Type.String(), Type.Array(Type.String())], {
  description: 'Repeated (a=1&a=2) or comma-joined (a=1,2)',
});
const BoolParam = Type.Optional(Type.Union([Type.Boolean(), Type.String()]));

export const ChainsQuery = Type.Object({
  chain_ids: Type.Optional(ListParam),
  include_evm: BoolParam,
  include_svm: BoolParam,
  only_testnets: BoolParam,
});

export const AssetsQuery = Type.Object({
  chain_ids: Type.Optional(ListParam),
  native_only: BoolParam,
  include_no_metadata_assets: BoolParam,
  include_cw20_assets: BoolParam,
  include_evm_assets: BoolParam,
  include_svm_assets: BoolParam,
  only_testnets: BoolParam,
});

export const ChainsResponse = Type.Object({ chains: Type.Array(Type.Record(Type.String(), Type.Unknown())) });
export const AssetsResponse = Type.Object({
  chain_to_assets_map: Type.Record(
    Type.String(),
    Type.Object({ assets: Type.Array(Type.Record(Type.String(), Type.Unknown())) }),
  ),
});

export const BalancesRequest = Type.Object({
  chains: Type.Record(
    Type.String(),
    Type.Object({
      address: Type.String({ maxLength: 256 }),
      denoms: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 })),
    }),
    // A wallet asks for every chain the router lists; the work is bounded per distinct chain instead.
    { maxProperties: 1000 },
  ),
});

export const BalancesResponse = Type.Object({
  chains: Type.Record(
    Type.String(),
    Type.Object({ denoms: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())) }),
  ),
});

const TokenId = Type.String({ minLength: 1, maxLength: 256 });
const Address = Type.String({ minLength: 1, maxLength: 256 });

export const NftRequest = Type.Object(
  {
    from_address: Address,
    from_chain_id: Id,
    to_address: Address,
    to_chain_id: Id,
    collection_address: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Move: the collection object; EVM: the ERC721 contract; Wasm: the cw721 contract',
    }),
    token_ids: Type.Array(TokenId, {
      minItems: 1,
      maxItems: 30,
      description: 'EVM: the origin token ids of re-minted (IBC) tokens',
    }),
    object_addresses: Type.Optional(
      Type.Array(Type.Union([Type.String({ maxLength: 256 }), Type.Null()]), {
        maxItems: 30,
        description: "Move: the tokens' objects",
      }),
    ),
    class_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description:
          'The ICS-721 class on the source chain (`move/<object>`, `evm/<contract>`, `ibc/<hash>`); default: of collection_address',
      }),
    ),
    class_trace: Type.Optional(
      Type.Union([
        Type.Object({
          path: Type.String({ maxLength: 1024, description: '`<port>/<channel>/…`, this chain’s end first' }),
          base_class_id: Type.String({ maxLength: 512 }),
        }),
        Type.Null(),
      ]),
    ),
    l1_recover_address: Type.Optional(Type.Union([Address, Type.Null()])),
    outgoing_proxy: Type.Optional(
      Type.Union([Type.String({ maxLength: 256 }), Type.Null()], {
        description: "Wasm: the ics721 contract's outgoing proxy",
      }),
    ),
    timeout: Type.Optional(
      Type.Union([Type.String({ pattern: '^[0-9]{1,7}$' }), Type.Integer({ minimum: 1 })], {
        description: 'Seconds from now (default 1800)',
      }),
    ),
    ignore_blacklist: Type.Optional(Type.Boolean()),
  },
  { description: 'Initia: NFTs of one collection to another chain over ICS-721' },
);

export const NftResponse = Type.Object({
  msgs: Type.Array(
    Type.Object({
      type: Type.String({
        description:
          'Amino type: `nft-transfer/MsgTransfer` between chains (`wasm/MsgExecuteContract` from a Wasm rollup); `move/MsgExecute`, `evm/MsgCall` or `wasm/MsgExecuteContract` within one',
      }),
      value: Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Amino JSON; a MsgTransfer has source_port, source_channel, class_id, token_ids, sender, receiver, timeout_height, timeout_timestamp (ns)',
      }),
    }),
  ),
});
