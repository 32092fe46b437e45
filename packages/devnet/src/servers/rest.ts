import type { FastifyInstance } from 'fastify';
import type { ChainNode } from '../node.js';
import { GatewayError, invalidArgument, notImplemented, unknownError } from './gateway-errors.js';
import { acceptRawBodies, createHttpApp } from './http-app.js';
import { registerAuthzRoutes } from './rest-authz.js';
import { createRestContext, type RestServerOptions } from './rest-context.js';
import { registerIbcRoutes } from './rest-ibc.js';
import { registerMoveRoutes } from './rest-move.js';
import { registerOpinitRoutes } from './rest-opinit.js';
import { registerStakingRoutes } from './rest-staking.js';
import { registerStateRoutes } from './rest-state.js';
import { registerTxRoutes } from './rest-tx.js';
import { registerVmRoutes } from './rest-vm.js';

export type { RestServerOptions } from './rest-context.js';

/**
 * Cosmos REST as the SDK's gRPC gateway serves it: proto JSON (snake_case, int64 as strings, Any as
 * `@type`), state queries at the `x-cosmos-block-height` header, gateway error bodies, and 501 for
 * routes this chain does not have.
 */

export function createRestServer(node: ChainNode, options: RestServerOptions = {}): FastifyInstance {
  const app = createHttpApp('rest', options);
  acceptRawBodies(app);
  const ctx = createRestContext(node, options);

  app.setErrorHandler((err, request, reply) => {
    let error: GatewayError;
    const statusCode = (err as { statusCode?: unknown }).statusCode;
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof GatewayError) error = err;
    else if (typeof statusCode === 'number' && statusCode < 500) error = invalidArgument(message);
    else {
      request.log.error({ err, url: request.url }, 'REST handler failed');
      error = unknownError(message);
    }
    return reply.code(error.httpStatus).header('content-type', 'application/json').send(error.body());
  });
  // grpc-gateway answers a path no service registered with Unimplemented.
  app.setNotFoundHandler((_request, reply) => {
    const error = notImplemented();
    return reply.code(error.httpStatus).header('content-type', 'application/json').send(error.body());
  });

  registerTxRoutes(app, ctx);
  registerStateRoutes(app, ctx);
  registerVmRoutes(app, ctx);
  registerMoveRoutes(app, ctx);
  registerStakingRoutes(app, ctx);
  registerAuthzRoutes(app, ctx);
  registerOpinitRoutes(app, ctx);
  registerIbcRoutes(app, ctx);
  return app;
}
