import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { InvalidArgumentError, NotFoundError } from '../../common/errors.js';
import { echo } from '../../common/http.js';
import { collectionNameKey } from '../../store/collection-name.js';
import {
  type CollectionRow,
  collectionByAddress,
  collectionsByAccount,
  collectionsByName,
  listCollections,
} from '../../store/read/collections.js';
import type { Page } from '../../store/read/page.js';
import type { ApiContext } from '../context.js';
import { collectionCursor, type PaginationQuery, pageRequest, paginationOf } from '../pagination.js';
import { parseAccount, parseCollectionAddress } from '../params.js';
import { bech32, hex0x } from '../render.js';
import { accountParam, errorResponses, paginationQuery } from '../schemas/common.js';
import { CollectionResponse, CollectionsResponse } from '../schemas/nft.js';

const TAGS = ['NFT'];
const ORDER = 'Ordered by creation height, newest first by default.';

export function registerCollectionRoutes(instance: FastifyInstance, ctx: ApiContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { bech32Prefix: prefix } = ctx.chain;
  const listConfig = { cacheTtlMs: ctx.ttl.listMs, cacheFollowsHead: true };
  const response = { 200: CollectionsResponse, ...errorResponses };

  const render = (c: CollectionRow) => ({
    object_addr: hex0x(c.addr),
    collection: {
      creator: bech32(prefix, c.creator),
      name: c.name,
      origin_name: c.originName,
      nfts: { handle: '', length: c.nftCount },
    },
    height: c.height,
    timestamp: c.timestamp,
  });
  const answer = (page: Page<CollectionRow, unknown>, request: ReturnType<typeof pageRequest>) => ({
    collections: page.rows.map(render),
    pagination: paginationOf(page, request),
  });

  app.get(
    '/indexer/nft/v1/collections',
    {
      config: listConfig,
      schema: {
        tags: TAGS,
        summary: 'NFT collections',
        description: ORDER,
        querystring: Type.Object(paginationQuery),
        response,
      },
    },
    async (request) => {
      const page = pageRequest(request.query as PaginationQuery, collectionCursor);
      return answer(await listCollections(ctx.db, page), page);
    },
  );

  app.get(
    '/indexer/nft/v1/collections/by_account/:account',
    {
      config: listConfig,
      schema: {
        tags: TAGS,
        summary: 'NFT collections by account',
        description: `Collections in which the account owns at least one NFT now. ${ORDER}`,
        params: Type.Object({ account: accountParam }),
        querystring: Type.Object(paginationQuery),
        response,
      },
    },
    async (request) => {
      const account = parseAccount(request.params.account, prefix);
      const page = pageRequest(request.query as PaginationQuery, collectionCursor);
      return answer(await collectionsByAccount(ctx.db, account, page), page);
    },
  );

  const byName = async (name: string, query: PaginationQuery) => {
    const key = collectionNameKey(name);
    // rollytics matches every collection here; a search for nothing is a mistake worth saying.
    if (key === '') {
      throw new InvalidArgumentError(
        `invalid value for name: ${echo(name)} (must contain a letter or a digit)`,
      );
    }
    const page = pageRequest(query, collectionCursor);
    return answer(await collectionsByName(ctx.db, key, page), page);
  };
  const byNameSchema = {
    tags: TAGS,
    summary: 'NFT collections by name',
    description:
      'Collections whose name or origin name contains the given text, compared in lower case with everything but ' +
      'letters and digits removed (a name with no letter or digit is a 400). URL-encode a name with "/" or ' +
      `spaces. ${ORDER}`,
    querystring: Type.Object(paginationQuery),
    response,
  };
  app.get(
    '/indexer/nft/v1/collections/by_name/:name',
    { config: listConfig, schema: { ...byNameSchema, params: Type.Object({ name: Type.String() }) } },
    async (request) => byName(request.params.name, request.query as PaginationQuery),
  );
  // Names such as `ibc/…` sent with a raw slash.
  app.get(
    '/indexer/nft/v1/collections/by_name/*',
    {
      config: listConfig,
      schema: { ...byNameSchema, hide: true, params: Type.Object({ '*': Type.String() }) },
    },
    async (request) => byName(request.params['*'], request.query as PaginationQuery),
  );

  app.get(
    '/indexer/nft/v1/collections/:collection_addr',
    {
      config: { cacheTtlMs: ctx.ttl.itemMs },
      schema: {
        tags: TAGS,
        summary: 'NFT collection by address',
        params: Type.Object({
          collection_addr: Type.String({ description: 'Collection address, hex or bech32' }),
        }),
        response: { 200: CollectionResponse, ...errorResponses },
      },
    },
    async (request) => {
      const addr = parseCollectionAddress(request.params.collection_addr, ctx.chain.vm, prefix);
      const collection = await collectionByAddress(ctx.db, addr);
      if (!collection) throw new NotFoundError('nft collection not found');
      return { collection: render(collection) };
    },
  );
}
