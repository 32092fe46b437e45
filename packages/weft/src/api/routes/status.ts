import type { FastifyInstance } from 'fastify';
import { indexedHeights } from '../../store/read/status.js';
import type { ApiContext } from '../context.js';
import { errorResponses } from '../schemas/common.js';
import { StatusResponse } from '../schemas/status.js';

export function registerStatusRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const { chain } = ctx;
  app.get(
    '/status',
    {
      config: { cacheTtlMs: ctx.ttl.listMs },
      schema: {
        tags: ['Status'],
        summary: 'Indexer status',
        description:
          'Latest indexed height, and on EVM the heights of the internal-tx and rich-list indexing ' +
          '(left out while 0, as rollytics does) and how many blocks each is behind the indexed ' +
          'height (`internal_tx_lag`, `rich_list_lag`; not in rollytics).',
        response: { 200: StatusResponse, ...errorResponses },
      },
    },
    async () => {
      const [heights, chainHeight] = await Promise.all([indexedHeights(ctx.statusDb), ctx.head.height()]);
      const evm = chain.vm === 'evm';
      return {
        version: ctx.build.version,
        commit_hash: await ctx.build.commitHash,
        chain_id: chain.chainId,
        height: heights.height,
        ...(chain.internalTx && heights.internalTxHeight > 0
          ? { internal_tx_height: heights.internalTxHeight }
          : {}),
        ...(evm && heights.richListHeight > 0 ? { rich_list_height: heights.richListHeight } : {}),
        // Lags go after rollytics' fields. A traced height of 0 is a lag too, so it is not left out.
        ...(chain.internalTx ? { internal_tx_lag: heights.height - heights.internalTxHeight } : {}),
        ...(evm && heights.richListHeight > 0
          ? { rich_list_lag: Math.max(0, heights.height - heights.richListHeight) }
          : {}),
        ...(chainHeight === undefined
          ? {}
          : { chain_height: chainHeight, lag: Math.max(0, chainHeight - heights.height) }),
      };
    },
  );
}
