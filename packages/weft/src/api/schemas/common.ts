import { type Static, type TSchema, Type } from 'typebox';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from '../limits.js';

/** OpenAPI 3.0's `nullable` (Ajv and fast-json-stringify read it too; an anyOf would be slower to serialise). */
export const nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });

export const ErrorResponse = Type.Object(
  {
    code: Type.Integer({
      description: 'gRPC status code (3 invalid argument, 5 not found, 13 internal, 14 unavailable)',
    }),
    message: Type.String(),
    details: Type.Array(Type.Unknown()),
  },
  { description: 'Every non-2xx answer' },
);

/** Error answers every route documents beside its 200. */
export const errorResponses = {
  400: { ...ErrorResponse, description: 'Bad input (the message names the parameter)' },
  404: { ...ErrorResponse, description: 'Not found, or not served on this chain' },
  500: { ...ErrorResponse, description: 'Internal error' },
  503: { ...ErrorResponse, description: 'The store is unreachable' },
};

export const PaginationResponse = Type.Object({
  previous_key: nullable(Type.String({ description: 'Offset key one page back (offset pages only)' })),
  next_key: nullable(Type.String({ description: 'Key of the next page; null on the last page' })),
  total: Type.String({
    description: 'Exact number of rows in the whole list ("0" when count_total is false)',
  }),
});

export const KEY_RULE =
  'Opaque key from a previous `pagination.next_key`. A key positions the page right after the previous one; ' +
  'if `pagination.offset` is also given it skips that many rows after the key.';

export const paginationQuery = {
  'pagination.key': Type.Optional(Type.String({ description: KEY_RULE })),
  'pagination.offset': Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_OFFSET,
      description: `Rows to skip (from the start, or after pagination.key), at most ${MAX_OFFSET}. Keys cost the same at any depth: walk deeper with next_key.`,
    }),
  ),
  'pagination.limit': Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
      description: `Rows per page, 1 to ${MAX_LIMIT}`,
    }),
  ),
  'pagination.count_total': Type.Optional(
    Type.Boolean({
      default: true,
      description: 'Answer the exact total (kept by the indexer, so it is cheap)',
    }),
  ),
  'pagination.reverse': Type.Optional(
    Type.Boolean({ default: true, description: 'true: newest (or largest) first' }),
  ),
};

export const msgsQuery = {
  msgs: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Msg type URLs, repeated or comma-separated, with or without the leading "/" ' +
        '(e.g. cosmos.bank.v1beta1.MsgSend). A tx matches if it has any of them; an unknown type matches nothing.',
    }),
  ),
};

export const heightParam = Type.String({
  pattern: '^[0-9]+$',
  description: 'Block height (a positive integer)',
});
export const accountParam = Type.String({
  description: 'Account: bech32 with the chain prefix, or hex (20 or 32 bytes) with or without 0x',
});
export const txHashParam = Type.String({
  description: 'Tx hash: 64 hex digits, any case, with or without 0x',
});
