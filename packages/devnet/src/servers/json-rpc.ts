import type { FastifyInstance } from 'fastify';
import type { ChainNode } from '../node.js';
import { ETH_CHAIN_METHODS, type EthMethod } from './eth-chain.js';
import { createEthContext } from './eth-context.js';
import { EthRpcError, methodNotFoundError } from './eth-errors.js';
import { ETH_STATE_METHODS } from './eth-state.js';
import { createFaults } from './faults.js';
import { acceptRawBodies, createHttpApp, type NodeServerOptions, responseCache } from './http-app.js';

/**
 * The EVM JSON-RPC of the EVM rollup (minievm's `eth`, `net`, `web3`, `debug` and `cosmos` namespaces),
 * over HTTP POST as geth serves it: single calls and batches, geth's error codes and texts, results
 * spliced into the envelope from cached serialisations.
 */

const METHODS: Record<string, EthMethod> = { ...ETH_CHAIN_METHODS, ...ETH_STATE_METHODS };
const BATCH_LIMIT = 1000;

type RpcId = string | number | null;

const errorJson = (id: RpcId, error: EthRpcError) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify(error)}}`;

export function createJsonRpcServer(node: ChainNode, options: NodeServerOptions = {}): FastifyInstance {
  const evm = node.evm;
  if (!evm) throw new Error(`chain ${node.info.chainId} has no EVM: it serves no EVM JSON-RPC`);
  const app = createHttpApp('json-rpc', options);
  acceptRawBodies(app);
  const ctx = createEthContext(node, evm, options.faults ?? createFaults(), responseCache(options));

  /** One call; `undefined` for a notification (no id), which geth runs without answering. */
  const callOne = async (message: unknown): Promise<string | undefined> => {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return errorJson(null, new EthRpcError(-32600, 'invalid request'));
    }
    const { id, method, params } = message as { id?: RpcId; method?: unknown; params?: unknown };
    const isNotification = !('id' in message);
    const replyId = id === undefined ? null : id;
    if (typeof method !== 'string' || method === '' || (typeof replyId === 'object' && replyId !== null)) {
      return errorJson(null, new EthRpcError(-32600, 'invalid request'));
    }
    let answer: string;
    const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!handler) answer = errorJson(replyId, methodNotFoundError(method));
    else {
      try {
        answer = `{"jsonrpc":"2.0","id":${JSON.stringify(replyId)},"result":${await handler(ctx, params)}}`;
      } catch (err) {
        if (err instanceof EthRpcError) answer = errorJson(replyId, err);
        else {
          app.log.error({ err, method }, 'JSON-RPC method failed');
          answer = errorJson(replyId, new EthRpcError(-32603, (err as Error).message));
        }
      }
    }
    return isNotification ? undefined : answer;
  };

  app.post('/', async (request, reply) => {
    const contentType = request.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(contentType)) {
      return reply
        .code(415)
        .type('text/plain')
        .send('invalid content type, only application/json is supported\n');
    }
    reply.header('content-type', 'application/json');
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      return reply.send(errorJson(null, new EthRpcError(-32700, 'parse error')));
    }
    if (!Array.isArray(parsed)) return reply.send((await callOne(parsed)) ?? '');
    if (parsed.length === 0) return reply.send(errorJson(null, new EthRpcError(-32600, 'empty batch')));
    if (parsed.length > BATCH_LIMIT)
      return reply.send(errorJson(null, new EthRpcError(-32600, 'batch too large')));
    const answers = await Promise.all(parsed.map(callOne));
    return reply.send(`[${answers.filter((a) => a !== undefined).join(',')}]`);
  });

  // geth answers an empty GET with 200, which load balancers use as a health check.
  app.get('/', async (_request, reply) => reply.code(200).send(''));
  return app;
}
