import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { buildNftTransferMsgs, DEFAULT_NFT_TIMEOUT_SECONDS, MAX_NFT_TOKENS } from '../../msgs/nft.js';
import type { RouterContext } from '../context.js';
import { errorResponses, NftRequest, NftResponse } from '../schemas.js';
import { timeoutSecondsOf } from '../timeout.js';

export function registerNftRoutes(app: FastifyInstance, ctx: RouterContext): void {
  app.post(
    '/nft',
    {
      schema: {
        tags: ['NFT'],
        summary: 'Initia: the msgs that send NFTs, to another chain over ICS-721 or within one',
        description:
          `One \`/ibc.applications.nft_transfer.v1.MsgTransfer\` in amino JSON (\`{type, value}\`) over the ` +
          `ICS-721 channel between the two chains; a class that came in over one of them goes back over it. ` +
          'Between two rollups: the same hop to the L1 with `receiver` `0x1::nft_transfer::nft_transfer` and a move-hook ' +
          'memo that has the L1 send the NFTs on. From a Wasm rollup: cw721 `send_nft` to its ics721 contract ' +
          '(`wasm/MsgExecuteContract`, one per token). Within one chain: `0x1::object::transfer_call` per object (Move), ' +
          'ERC721 `transferFrom` (EVM) or cw721 `transfer_nft` (Wasm) per token. ' +
          `1 to ${MAX_NFT_TOKENS} tokens of one collection; \`timeout\` in seconds (default ` +
          `${DEFAULT_NFT_TIMEOUT_SECONDS}). 404 when a chain is unknown or no ICS-721 channel joins them.`,
        body: NftRequest,
        response: { 200: NftResponse, ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof NftRequest>;
      const msgs = buildNftTransferMsgs(ctx.registry, {
        fromAddress: body.from_address,
        fromChainId: body.from_chain_id,
        toAddress: body.to_address,
        toChainId: body.to_chain_id,
        collectionAddress: body.collection_address,
        tokenIds: body.token_ids,
        objectAddresses: body.object_addresses,
        classId: body.class_id,
        classTrace: body.class_trace
          ? { path: body.class_trace.path, baseClassId: body.class_trace.base_class_id }
          : undefined,
        l1RecoverAddress: body.l1_recover_address ?? undefined,
        outgoingProxy: body.outgoing_proxy ?? undefined,
        timeoutSeconds: timeoutSecondsOf(body.timeout, 'timeout', DEFAULT_NFT_TIMEOUT_SECONDS),
        nowMs: Date.now(),
      });
      return { msgs };
    },
  );
}
