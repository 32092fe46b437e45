import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { nftTxs } from '../../store/read/nft-txs.js';
import type { Page } from '../../store/read/page.js';
import {
  type TokenOrder,
  type TokenRow,
  tokensByAccount,
  tokensByCollection,
} from '../../store/read/tokens.js';
import type { ApiContext } from '../context.js';
import {
  type PaginationQuery,
  pageRequest,
  paginationOf,
  sequenceCursor,
  tokenCursor,
} from '../pagination.js';
import { parseAccount, parseCollectionAddress } from '../params.js';
import { bech32, hex0x } from '../render.js';
import { accountParam, errorResponses, paginationQuery } from '../schemas/common.js';
import { NftsResponse, orderByQuery } from '../schemas/nft.js';
import { TxsResponse } from '../schemas/txs.js';
import { txsAnswer, txsSerializer } from './txs.js';

const TAGS = ['NFT'];
const collectionAddrParam = Type.String({ description: 'Collection address, hex or bech32' });
const tokenIdQuery = { token_id: Type.Optional(Type.String({ description: 'Only the token with this id' })) };

export function registerTokenRoutes(instance: FastifyInstance, ctx: ApiContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { bech32Prefix: prefix, vm } = ctx.chain;
  const listConfig = { cacheTtlMs: ctx.ttl.listMs, cacheFollowsHead: true };
  const response = { 200: NftsResponse, ...errorResponses };

  const render = (t: TokenRow) => ({
    collection_addr: hex0x(t.collectionAddr),
    collection_name: t.collectionName,
    collection_origin_name: t.collectionOriginName,
    object_addr: hex0x(t.objectAddr),
    owner: bech32(prefix, t.owner),
    nft: { token_id: t.tokenId, uri: t.uri },
    height: t.height,
    timestamp: t.timestamp,
  });
  const answer = (page: Page<TokenRow, unknown>, request: ReturnType<typeof pageRequest>) => ({
    tokens: page.rows.map(render),
    pagination: paginationOf(page, request),
  });

  app.get(
    '/indexer/nft/v1/tokens/by_account/:account',
    {
      config: listConfig,
      schema: {
        tags: TAGS,
        summary: 'NFTs by account',
        description: 'Live NFTs the account owns, by token id (text order) or height, descending by default.',
        params: Type.Object({ account: accountParam }),
        querystring: Type.Object({
          ...paginationQuery,
          collection_addr: Type.Optional(
            Type.String({ description: 'Only NFTs of this collection (hex or bech32)' }),
          ),
          ...tokenIdQuery,
          ...orderByQuery,
        }),
        response,
      },
    },
    async (request) => {
      const { query } = request;
      const account = parseAccount(request.params.account, prefix);
      const collection =
        query.collection_addr === undefined
          ? undefined
          : parseCollectionAddress(query.collection_addr, vm, prefix, 'collection_addr');
      const page = pageRequest(query as PaginationQuery, tokenCursor);
      const filter = {
        collection,
        tokenId: query.token_id,
        orderBy: (query.order_by ?? 'token_id') as TokenOrder,
      };
      return answer(await tokensByAccount(ctx.db, account, filter, page), page);
    },
  );

  app.get(
    '/indexer/nft/v1/tokens/by_collection/:collection_addr',
    {
      config: listConfig,
      schema: {
        tags: TAGS,
        summary: 'NFTs by collection',
        description: 'Live NFTs of a collection, by token id (text order) or height, descending by default.',
        params: Type.Object({ collection_addr: collectionAddrParam }),
        querystring: Type.Object({ ...paginationQuery, ...tokenIdQuery, ...orderByQuery }),
        response,
      },
    },
    async (request) => {
      const { query } = request;
      const collection = parseCollectionAddress(request.params.collection_addr, vm, prefix);
      const page = pageRequest(query as PaginationQuery, tokenCursor);
      const filter = { tokenId: query.token_id, orderBy: (query.order_by ?? 'token_id') as TokenOrder };
      return answer(await tokensByCollection(ctx.db, collection, filter, page), page);
    },
  );

  const txsOfNft = async (collectionAddr: string, tokenId: string, query: PaginationQuery) => {
    const collection = parseCollectionAddress(collectionAddr, vm, prefix);
    const page = pageRequest(query, sequenceCursor);
    return txsAnswer(await nftTxs(ctx.db, { collection, tokenId }, page, ctx.records), page);
  };
  const txsSchema = {
    tags: TAGS,
    summary: 'Txs of an NFT',
    description:
      'Cosmos txs that minted, transferred, changed or burned the NFT; a burned NFT keeps its history. ' +
      'Ordered by tx sequence, newest first by default.',
    querystring: Type.Object(paginationQuery),
    response: { 200: TxsResponse, ...errorResponses },
  };
  app.get(
    '/indexer/nft/v1/txs/:collection_addr/:token_id',
    {
      config: listConfig,
      serializerCompiler: txsSerializer,
      schema: {
        ...txsSchema,
        params: Type.Object({ collection_addr: collectionAddrParam, token_id: Type.String() }),
      },
    },
    async (request) =>
      txsOfNft(request.params.collection_addr, request.params.token_id, request.query as PaginationQuery),
  );
  // Token ids with a raw "/".
  app.get(
    '/indexer/nft/v1/txs/:collection_addr/*',
    {
      config: listConfig,
      serializerCompiler: txsSerializer,
      schema: {
        ...txsSchema,
        hide: true,
        params: Type.Object({ collection_addr: collectionAddrParam, '*': Type.String() }),
      },
    },
    async (request) =>
      txsOfNft(request.params.collection_addr, request.params['*'], request.query as PaginationQuery),
  );
}
