import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NotFoundError } from '../../common/errors.js';
import {
  evmTxSequence,
  type InternalTxRow,
  internalTxsByAccount,
  internalTxsByHeight,
  internalTxsOfTx,
  listInternalTxs,
} from '../../store/read/internal-txs.js';
import type { Page } from '../../store/read/page.js';
import type { ApiContext } from '../context.js';
import { type PaginationQuery, pageRequest, paginationOf, sequenceCursor } from '../pagination.js';
import { parseAccount, parseHeight, parseTxHash } from '../params.js';
import { hex0x } from '../render.js';
import { accountParam, errorResponses, paginationQuery, txHashParam } from '../schemas/common.js';
import { InternalTxsResponse } from '../schemas/txs.js';

const TAGS = ['EVM Internal Tx'];
const ORDER = 'Ordered by the internal-tx sequence (depth-first within a tx), newest first by default.';

const render = (call: InternalTxRow) => ({
  height: call.height,
  hash: hex0x(call.txHash),
  parent_index: call.parentIndex,
  index: call.index,
  type: call.type,
  from: hex0x(call.from),
  to: hex0x(call.to),
  input: hex0x(call.input),
  output: hex0x(call.output),
  value: hex0x(call.value),
  gas: hex0x(call.gas),
  gasUsed: hex0x(call.gasUsed),
});

const answer = (page: Page<InternalTxRow, unknown>, request: ReturnType<typeof pageRequest>) => ({
  internal_txs: page.rows.map(render),
  pagination: paginationOf(page, request),
});

/** EVM call frames (EVM chains with INTERNAL_TX only). */
export function registerInternalTxRoutes(instance: FastifyInstance, ctx: ApiContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const listConfig = { cacheTtlMs: ctx.ttl.listMs, cacheFollowsHead: true };
  const response = { 200: InternalTxsResponse, ...errorResponses };

  app.get(
    '/indexer/tx/v1/evm-internal-txs',
    {
      config: listConfig,
      schema: {
        tags: TAGS,
        summary: 'EVM internal txs',
        description: ORDER,
        querystring: Type.Object(paginationQuery),
        response,
      },
    },
    async (request) => {
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return answer(await listInternalTxs(ctx.db, page), page);
    },
  );

  app.get(
    '/indexer/tx/v1/evm-internal-txs/by_account/:account',
    {
      config: listConfig,
      schema: {
        tags: TAGS,
        summary: 'EVM internal txs by account',
        description: `Calls from or to the account. ${ORDER}`,
        params: Type.Object({ account: accountParam }),
        querystring: Type.Object(paginationQuery),
        response,
      },
    },
    async (request) => {
      const account = parseAccount(request.params.account, ctx.chain.bech32Prefix);
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return answer(await internalTxsByAccount(ctx.db, account, page), page);
    },
  );

  app.get(
    '/indexer/tx/v1/evm-internal-txs/by_height/:height',
    {
      config: listConfig,
      schema: {
        tags: TAGS,
        summary: 'EVM internal txs by height',
        description: ORDER,
        params: Type.Object({ height: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        querystring: Type.Object(paginationQuery),
        response,
      },
    },
    async (request) => {
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return answer(await internalTxsByHeight(ctx.db, parseHeight(request.params.height), page), page);
    },
  );

  app.get(
    '/indexer/tx/v1/evm-internal-txs/:tx_hash',
    {
      config: { cacheTtlMs: ctx.ttl.itemMs },
      schema: {
        tags: TAGS,
        summary: 'EVM internal txs of a tx',
        description: `The calls of one EVM tx (404 if no EVM tx has the hash). ${ORDER}`,
        params: Type.Object({ tx_hash: txHashParam }),
        querystring: Type.Object(paginationQuery),
        response,
      },
    },
    async (request) => {
      const sequence = await evmTxSequence(ctx.db, parseTxHash(request.params.tx_hash));
      if (sequence === undefined) throw new NotFoundError('transaction not found');
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return answer(await internalTxsOfTx(ctx.db, sequence, page), page);
    },
  );
}
