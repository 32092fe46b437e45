import { Type } from 'typebox';
import { PaginationResponse } from './common.js';

export const TokenHolder = Type.Object({
  account: Type.String({ description: '0x hex on EVM' }),
  amount: Type.String({ description: 'Base units, decimal text' }),
});

export const TokenHoldersResponse = Type.Object({
  holders: Type.Array(TokenHolder),
  pagination: PaginationResponse,
});
