import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NotFoundError } from '../../common/errors.js';
import { evmTxByHash, evmTxsByAccount, evmTxsByHeight, listEvmTxs } from '../../store/read/evm-txs.js';
import type { ApiContext } from '../context.js';
import { type PaginationQuery, pageRequest, paginationOf, sequenceCursor } from '../pagination.js';
import { parseAccount, parseHeight, parseTxHash } from '../params.js';
import { accountParam, errorResponses, paginationQuery, txHashParam } from '../schemas/common.js';
import { type EvmTxRecord, EvmTxResponse, EvmTxsResponse } from '../schemas/txs.js';
import { storedAs, storedRecordsSerializer } from '../stored-json.js';
import { isSignerQuery, txsSerializer } from './txs.js';

const TAGS = ['EVM Tx'];
const ORDER = 'Ordered by the global EVM tx sequence, newest first by default.';

/** EVM receipts (EVM chains only). */
export function registerEvmTxRoutes(instance: FastifyInstance, ctx: ApiContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const listConfig = { cacheTtlMs: ctx.ttl.listMs, cacheFollowsHead: true };
  const answer = (page: Awaited<ReturnType<typeof listEvmTxs>>, request: ReturnType<typeof pageRequest>) => ({
    txs: page.rows.map((row) => storedAs<EvmTxRecord>(row.json)),
    pagination: paginationOf(page, request),
  });

  app.get(
    '/indexer/tx/v1/evm-txs',
    {
      config: listConfig,
      serializerCompiler: txsSerializer,
      schema: {
        tags: TAGS,
        summary: 'EVM txs',
        description: `EVM tx receipts. ${ORDER}`,
        querystring: Type.Object(paginationQuery),
        response: { 200: EvmTxsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return answer(await listEvmTxs(ctx.db, page, ctx.records), page);
    },
  );

  app.get(
    '/indexer/tx/v1/evm-txs/by_account/:account',
    {
      config: listConfig,
      serializerCompiler: txsSerializer,
      schema: {
        tags: TAGS,
        summary: 'EVM txs by account',
        description: `EVM txs whose from, to, created contract, log address or address topic is the account. ${ORDER}`,
        params: Type.Object({ account: accountParam }),
        querystring: Type.Object({ ...paginationQuery, ...isSignerQuery }),
        response: { 200: EvmTxsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const account = parseAccount(request.params.account, ctx.chain.bech32Prefix);
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return answer(
        await evmTxsByAccount(
          ctx.db,
          { account, signer: request.query.is_signer ?? false },
          page,
          ctx.records,
        ),
        page,
      );
    },
  );

  app.get(
    '/indexer/tx/v1/evm-txs/by_height/:height',
    {
      config: listConfig,
      serializerCompiler: txsSerializer,
      schema: {
        tags: TAGS,
        summary: 'EVM txs by height',
        description: `EVM txs of one block. ${ORDER}`,
        params: Type.Object({ height: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        querystring: Type.Object(paginationQuery),
        response: { 200: EvmTxsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return answer(
        await evmTxsByHeight(ctx.db, parseHeight(request.params.height), page, ctx.records),
        page,
      );
    },
  );

  app.get(
    '/indexer/tx/v1/evm-txs/:tx_hash',
    {
      config: { cacheTtlMs: ctx.ttl.itemMs },
      serializerCompiler: storedRecordsSerializer('tx'),
      schema: {
        tags: TAGS,
        summary: 'EVM tx by hash',
        params: Type.Object({ tx_hash: txHashParam }),
        response: { 200: EvmTxResponse, ...errorResponses },
      },
    },
    async (request) => {
      const tx = await evmTxByHash(ctx.db, parseTxHash(request.params.tx_hash));
      if (!tx) throw new NotFoundError('tx not found');
      return { tx: storedAs<EvmTxRecord>(tx.json) };
    },
  );
}
