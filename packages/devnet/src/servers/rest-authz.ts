import type { FastifyInstance } from 'fastify';
import { GrpcCode } from 'weft/common/errors.js';
import { GatewayError, sdkError, unknownError } from './gateway-errors.js';
import { emptyPage } from './pagination.js';
import { type RestContext, sendJson } from './rest-context.js';

/**
 * The authz and feegrant queries of the SDK (InterwovenKit's auto-signing views read a granter's grants on
 * every chain). The devnet's chains take no grant or allowance msg, so none exists: the lists are empty and
 * an allowance is not found, as the keepers answer for an empty store. Address errors are the codec's,
 * returned as they are: gRPC Unknown.
 */

type Query = Record<string, unknown>;

export function registerAuthzRoutes(app: FastifyInstance, ctx: RestContext): void {
  const address = (input: unknown) => ctx.bech32Address(String(input ?? ''), unknownError);

  // `Query/Grants`: one granter-grantee pair, all msg types or the one asked.
  app.get('/cosmos/authz/v1beta1/grants', async (request, reply) => {
    ctx.stateHeight(request, reply);
    const query = request.query as Query;
    address(query.granter);
    address(query.grantee);
    const msgTypeUrl = String(query.msg_type_url ?? '');
    if (msgTypeUrl !== '') {
      const message = `authorization not found for ${msgTypeUrl} type`;
      throw sdkError(GrpcCode.UNKNOWN, 'authz', 2, 'authorization not found', message);
    }
    return sendJson(reply, JSON.stringify({ grants: [], pagination: emptyPage(query) }));
  });

  app.get('/cosmos/authz/v1beta1/grants/granter/:granter', async (request, reply) => {
    ctx.stateHeight(request, reply);
    address((request.params as { granter: string }).granter);
    return sendJson(reply, JSON.stringify({ grants: [], pagination: emptyPage(request.query as Query) }));
  });

  // `Query/Allowance`: the collection's not-found error, wrapped as Internal by the query server.
  app.get('/cosmos/feegrant/v1beta1/allowance/:granter/:grantee', async (request, reply) => {
    ctx.stateHeight(request, reply);
    const { granter, grantee } = request.params as { granter: string; grantee: string };
    address(granter);
    address(grantee);
    const key = `('${grantee}', '${granter}')`;
    const message = `collections: not found: key '${key}' of type cosmos.feegrant.v1beta1.Grant`;
    throw new GatewayError(GrpcCode.INTERNAL, message);
  });
}
