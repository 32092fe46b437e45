import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ChainNode } from '../node.js';
import {
  CometRpcError,
  internalError,
  invalidParams,
  invalidRequest,
  methodNotFound,
  ParamError,
  parseError,
} from './comet-errors.js';
import { COMET_METHODS, type CometContext } from './comet-methods.js';
import { jsonParams, uriParams } from './comet-params.js';
import { createFaults } from './faults.js';
import {
  acceptRawBodies,
  createHttpApp,
  type NodeServerOptions,
  responseCache,
  serverAddress,
} from './http-app.js';

/**
 * CometBFT v0.38 RPC: URI calls (`GET /block?height=5`, answered with `id: -1`) and JSON-RPC 2.0 POSTs to
 * `/` (single or batch, as `@cosmjs/tendermint-rpc` sends them). Results are spliced into the envelope
 * as pre-serialised strings, so a cached block is never stringified twice.
 */

const URI_ID = -1;
type RpcId = string | number;

function envelope(id: RpcId, result: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
}

function errorEnvelope(id: RpcId | undefined, error: CometRpcError): string {
  const idPart = id === undefined ? '' : `"id":${JSON.stringify(id)},`;
  return `{"jsonrpc":"2.0",${idPart}"error":${JSON.stringify(error)}}`;
}

function asRpcError(err: unknown, transport: 'http' | 'json'): CometRpcError {
  if (err instanceof CometRpcError) return err;
  if (err instanceof ParamError)
    return invalidParams(`error converting ${transport} params to arguments: ${err.message}`);
  return internalError(err instanceof Error ? err.message : String(err));
}

function endpointList(host: string): string {
  const links = Object.keys(COMET_METHODS)
    .sort()
    .map((name) => {
      const args = COMET_METHODS[name]!.params.map((p) => `${p}=_`).join('&');
      const href = `//${host}/${name}${args ? `?${args}` : ''}`;
      return `<a href="${href}">${href}</a></br>`;
    });
  return `<html><body><br>Available endpoints:<br>${links.join('')}</body></html>`;
}

export function createCometRpcServer(node: ChainNode, options: NodeServerOptions = {}): FastifyInstance {
  const app = createHttpApp('rpc', options);
  acceptRawBodies(app);
  const ctx: CometContext = {
    node,
    faults: options.faults ?? createFaults(),
    cache: responseCache(options),
    rpcAddress: () => serverAddress(app, 'tcp') ?? 'tcp://127.0.0.1:26657',
  };

  const sendJson = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('content-type', 'application/json').send(body);

  const callOne = async (request: unknown): Promise<string | undefined> => {
    const { id, method, params } = request as { id?: RpcId | null; method?: unknown; params?: unknown };
    // A request without an id is a notification: CometBFT neither runs nor answers it.
    if (id === undefined || id === null) return undefined;
    if (typeof method !== 'string') return errorEnvelope(id, invalidRequest('method must be a string'));
    const handler = Object.hasOwn(COMET_METHODS, method) ? COMET_METHODS[method] : undefined;
    if (!handler) return errorEnvelope(id, methodNotFound());
    try {
      return envelope(id, await handler.run(ctx, jsonParams(params, handler.params)));
    } catch (err) {
      return errorEnvelope(id, asRpcError(err, 'json'));
    }
  };

  app.post('/', async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    if (body.trim() === '') return reply.type('text/html').send(endpointList(request.host));
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (err) {
      return sendJson(
        reply,
        500,
        errorEnvelope(undefined, parseError(`error unmarshaling request: ${(err as Error).message}`)),
      );
    }
    const requests = Array.isArray(parsed) ? parsed : [parsed];
    if (requests.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) {
      return sendJson(
        reply,
        500,
        errorEnvelope(undefined, parseError('error unmarshaling request: not a JSON-RPC request object')),
      );
    }
    const responses = (await Promise.all(requests.map(callOne))).filter((r): r is string => r !== undefined);
    if (responses.length === 0) return reply.code(200).send('');
    // Go writes a lone response as an object even when it answers a batch.
    return sendJson(reply, 200, responses.length === 1 ? responses[0]! : `[${responses.join(',')}]`);
  });

  app.get('/', async (request, reply) => reply.type('text/html').send(endpointList(request.host)));

  const uriCall = async (request: { params: unknown; query: unknown }, reply: FastifyReply) => {
    const name = (request.params as { method: string }).method;
    const handler = Object.hasOwn(COMET_METHODS, name) ? COMET_METHODS[name] : undefined;
    if (!handler) return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n');
    try {
      const result = await handler.run(ctx, uriParams((request.query ?? {}) as Record<string, unknown>));
      return sendJson(reply, 200, envelope(URI_ID, result));
    } catch (err) {
      return sendJson(reply, 500, errorEnvelope(URI_ID, asRpcError(err, 'http')));
    }
  };
  app.get('/:method', uriCall);
  app.post('/:method', uriCall);
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n'),
  );
  return app;
}
