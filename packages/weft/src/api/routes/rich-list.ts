import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { holdersOfDenom } from '../../store/read/rich-list.js';
import type { ApiContext } from '../context.js';
import { holderCursor, type PaginationQuery, pageRequest, paginationOf } from '../pagination.js';
import { hex0x } from '../render.js';
import { errorResponses, paginationQuery } from '../schemas/common.js';
import { TokenHoldersResponse } from '../schemas/rich-list.js';

/** Token holders by balance (EVM chains only). */
export function registerRichListRoutes(instance: FastifyInstance, ctx: ApiContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  const holders = async (denom: string, query: PaginationQuery) => {
    const contract = await ctx.denoms.contractOf(denom);
    const page = pageRequest(query, holderCursor);
    const result = await holdersOfDenom(ctx.db, contract, page);
    return {
      holders: result.rows.map((h) => ({ account: hex0x(h.account), amount: h.amount })),
      pagination: paginationOf(result, page),
    };
  };
  const schema = {
    tags: ['Rich List'],
    summary: 'Token holders',
    description:
      'Holders of a token by balance, largest first by default (ties by account). The denom is an ERC20 address ' +
      '(0x…) or a bank denom the chain maps to one (URL-encode the "/" of ibc/… denoms, or send it raw).',
    querystring: Type.Object(paginationQuery),
    response: { 200: TokenHoldersResponse, ...errorResponses },
  };
  const config = { cacheTtlMs: ctx.ttl.itemMs };

  app.get(
    '/indexer/richlist/v1/:denom',
    {
      config,
      schema: {
        ...schema,
        params: Type.Object({ denom: Type.String({ description: 'Denom or ERC20 address' }) }),
      },
    },
    async (request) => holders(request.params.denom, request.query as PaginationQuery),
  );
  app.get(
    '/indexer/richlist/v1/*',
    { config, schema: { ...schema, hide: true, params: Type.Object({ '*': Type.String() }) } },
    async (request) => holders(request.params['*'], request.query as PaginationQuery),
  );
}
