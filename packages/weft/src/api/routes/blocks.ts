import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NotFoundError } from '../../common/errors.js';
import { averageBlockTime, type BlockRow, blockByHeight, listBlocks } from '../../store/read/blocks.js';
import type { ApiContext } from '../context.js';
import { heightCursor, pageRequest, paginationOf } from '../pagination.js';
import { parseHeight } from '../params.js';
import type { Proposer } from '../proposers.js';
import { secondsTimestamp, upperHex } from '../render.js';
import { AvgBlockTimeResponse, BlockResponse, BlocksResponse } from '../schemas/blocks.js';
import { errorResponses, heightParam, paginationQuery } from '../schemas/common.js';

const TAGS = ['Block'];

export function registerBlockRoutes(instance: FastifyInstance, ctx: ApiContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  const render = (block: BlockRow, proposers: Map<string, Proposer>) => ({
    chain_id: ctx.chain.chainId,
    height: String(block.height),
    hash: upperHex(block.hash),
    block_time: block.blockTime,
    timestamp: secondsTimestamp(block.timestamp),
    gas_used: block.gasUsed,
    gas_wanted: block.gasWanted,
    tx_count: String(block.txCount),
    total_fee: block.totalFee,
    proposer: proposers.get(block.proposer)!,
  });

  app.get(
    '/indexer/block/v1/avg_blocktime',
    {
      config: { cacheTtlMs: ctx.ttl.itemMs },
      schema: {
        tags: TAGS,
        summary: 'Average block time',
        description: 'Mean seconds between the latest 100 indexed blocks (0 with fewer than two).',
        response: { 200: AvgBlockTimeResponse, ...errorResponses },
      },
    },
    async () => ({ avg_block_time: await averageBlockTime(ctx.db) }),
  );

  app.get(
    '/indexer/block/v1/blocks',
    {
      config: { cacheTtlMs: ctx.ttl.listMs, cacheFollowsHead: true },
      schema: {
        tags: TAGS,
        summary: 'Blocks',
        description:
          'Indexed blocks by height, newest first by default. `total` is the number of indexed blocks.',
        querystring: Type.Object(paginationQuery),
        response: { 200: BlocksResponse, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, heightCursor);
      const result = await listBlocks(ctx.db, page);
      const proposers = await ctx.proposers.lookup(result.rows.map((b) => b.proposer));
      return { blocks: result.rows.map((b) => render(b, proposers)), pagination: paginationOf(result, page) };
    },
  );

  app.get(
    '/indexer/block/v1/blocks/:height',
    {
      config: { cacheTtlMs: ctx.ttl.itemMs },
      schema: {
        tags: TAGS,
        summary: 'Block by height',
        params: Type.Object({ height: heightParam }),
        response: { 200: BlockResponse, ...errorResponses },
      },
    },
    async (request) => {
      const block = await blockByHeight(ctx.db, parseHeight(request.params.height));
      if (!block) throw new NotFoundError('block not found');
      const proposers = await ctx.proposers.lookup([block.proposer]);
      return { block: render(block, proposers) };
    },
  );
}
