import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NotFoundError } from '../../common/errors.js';
import type { Page } from '../../store/read/page.js';
import { listTxs, type TxRow, txByHash, txsByAccount, txsByHeight } from '../../store/read/txs.js';
import type { ApiContext } from '../context.js';
import { type PaginationQuery, pageRequest, paginationOf, sequenceCursor } from '../pagination.js';
import { parseAccount, parseHeight, parseMsgTypes, parseTxHash } from '../params.js';
import { accountParam, errorResponses, msgsQuery, paginationQuery, txHashParam } from '../schemas/common.js';
import { type TxRecord, TxResponse, TxsResponse } from '../schemas/txs.js';
import { storedAs, storedRecordsSerializer } from '../stored-json.js';

const TAGS = ['Tx'];
const ORDER = 'Ordered by the global tx sequence (block order), newest first by default.';

export const isSignerQuery = {
  is_signer: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Only txs the account signed (the first signer; `from` on EVM)',
    }),
  ),
};

/** Routes answering `{txs, pagination}` splice the stored records in. */
export const txsSerializer = storedRecordsSerializer('txs');

/** A page of Cosmos txs as `{txs, pagination}`. */
export const txsAnswer = (page: Page<TxRow, unknown>, request: ReturnType<typeof pageRequest>) => ({
  txs: page.rows.map((row) => storedAs<TxRecord>(row.json)),
  pagination: paginationOf(page, request),
});

export function registerTxRoutes(instance: FastifyInstance, ctx: ApiContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const listConfig = { cacheTtlMs: ctx.ttl.listMs, cacheFollowsHead: true };
  const serializerCompiler = txsSerializer;

  app.get(
    '/indexer/tx/v1/txs',
    {
      config: listConfig,
      serializerCompiler,
      schema: {
        tags: TAGS,
        summary: 'Txs',
        description: `Cosmos txs. ${ORDER} \`total\` is exact (kept by the indexer), with or without \`msgs\`.`,
        querystring: Type.Object({ ...paginationQuery, ...msgsQuery }),
        response: { 200: TxsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      return txsAnswer(
        await listTxs(ctx.db, { msgTypes: parseMsgTypes(request.query.msgs) }, page, ctx.records),
        page,
      );
    },
  );

  app.get(
    '/indexer/tx/v1/txs/by_account/:account',
    {
      config: listConfig,
      serializerCompiler,
      schema: {
        tags: TAGS,
        summary: 'Txs by account',
        description: `Cosmos txs that touch an account (signer, or named in an event). ${ORDER} An unknown account has none.`,
        params: Type.Object({ account: accountParam }),
        querystring: Type.Object({ ...paginationQuery, ...isSignerQuery, ...msgsQuery }),
        response: { 200: TxsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const account = parseAccount(request.params.account, ctx.chain.bech32Prefix);
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      const filter = {
        account,
        signer: request.query.is_signer ?? false,
        msgTypes: parseMsgTypes(request.query.msgs),
      };
      return txsAnswer(await txsByAccount(ctx.db, filter, page, ctx.records), page);
    },
  );

  app.get(
    '/indexer/tx/v1/txs/by_height/:height',
    {
      config: listConfig,
      serializerCompiler,
      schema: {
        tags: TAGS,
        summary: 'Txs by height',
        description: `Cosmos txs of one block. ${ORDER} Pass pagination.reverse=false for block order.`,
        params: Type.Object({ height: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        querystring: Type.Object({ ...paginationQuery, ...msgsQuery }),
        response: { 200: TxsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageRequest(request.query as PaginationQuery, sequenceCursor);
      const filter = {
        height: parseHeight(request.params.height),
        msgTypes: parseMsgTypes(request.query.msgs),
      };
      return txsAnswer(await txsByHeight(ctx.db, filter, page, ctx.records), page);
    },
  );

  app.get(
    '/indexer/tx/v1/txs/:tx_hash',
    {
      config: { cacheTtlMs: ctx.ttl.itemMs },
      serializerCompiler: storedRecordsSerializer('tx'),
      schema: {
        tags: TAGS,
        summary: 'Tx by hash',
        description:
          'One Cosmos tx. On EVM chains an Ethereum hash is found under /indexer/tx/v1/evm-txs/{tx_hash}.',
        params: Type.Object({ tx_hash: txHashParam }),
        response: { 200: TxResponse, ...errorResponses },
      },
    },
    async (request) => {
      const tx = await txByHash(ctx.db, parseTxHash(request.params.tx_hash));
      if (!tx) throw new NotFoundError('transaction not found');
      return { tx: storedAs<TxRecord>(tx.json) };
    },
  );
}
