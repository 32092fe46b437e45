import type { FastifyInstance } from 'fastify';
import { BaseError } from 'weft/common/errors.js';
import type { Logger } from 'weft/common/logger.js';
import { acceptRawBodies, createHttpApp, serverAddress } from '../servers/http-app.js';
import type { ControlledRelayer, ControlMethod } from './types.js';

/** A refused control request, answered as a JSON-RPC error with `code`. */
export class ControlError extends BaseError {
  override name = 'ControlError';
  constructor(
    readonly rpcCode: number,
    message: string,
  ) {
    super('WEFT_ERR_CONTROL', message, { status: 400 });
  }
}

export interface ControlServer {
  url: string;
  /** Makes a relayer drivable through `weft_pauseRelayer`, `weft_resumeRelayer`, `weft_setRelayerDelay`. */
  registerRelayer(relayer: ControlledRelayer): void;
  /** Adds a method; its name must start with `weft_`. */
  registerMethod(name: string, method: ControlMethod): void;
  relayers(): ControlledRelayer[];
  close(): Promise<void>;
}

const INVALID_PARAMS = -32602;
const MAX_DELAY_MS = 24 * 3600 * 1000;

/**
 * The devnet's control surface, in the way of anvil's `anvil_*` methods: JSON-RPC 2.0 over HTTP POST,
 * on loopback, with the relayers the network's parts register (pause, resume, delay).
 */
export async function startControlServer(options: {
  host: string;
  port: number;
  logger?: Logger;
}): Promise<ControlServer> {
  const relayers = new Map<string, ControlledRelayer>();
  const methods = new Map<string, ControlMethod>();
  const relayerOf = (params: unknown[]) => {
    const name = params[0];
    if (typeof name !== 'string') throw new ControlError(INVALID_PARAMS, 'params[0] must be a relayer name');
    const relayer = relayers.get(name);
    if (!relayer) {
      const known = [...relayers.keys()].join(', ') || 'none';
      throw new ControlError(INVALID_PARAMS, `no relayer named "${name}" (registered: ${known})`);
    }
    return relayer;
  };
  const statusOf = (r: ControlledRelayer) => {
    const { paused, delayMs } = r.status();
    return { name: r.name, description: r.description ?? '', paused, delay_ms: delayMs };
  };
  const register = (name: string, method: ControlMethod) => {
    if (!name.startsWith('weft_')) throw new Error(`control: method ${name} must start with weft_`);
    if (methods.has(name)) throw new Error(`control: method ${name} is registered twice`);
    methods.set(name, method);
  };

  register('weft_relayers', () => [...relayers.values()].map(statusOf));
  register('weft_pauseRelayer', (params) => {
    const relayer = relayerOf(params);
    relayer.pause();
    return statusOf(relayer);
  });
  register('weft_resumeRelayer', (params) => {
    const relayer = relayerOf(params);
    relayer.resume();
    return statusOf(relayer);
  });
  register('weft_setRelayerDelay', (params) => {
    const relayer = relayerOf(params);
    const ms = params[1];
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) {
      throw new ControlError(INVALID_PARAMS, `params[1] must be a delay in ms, 0..${MAX_DELAY_MS}`);
    }
    relayer.setDelay(ms);
    return statusOf(relayer);
  });

  const app = createHttpApp('control', { logger: options.logger });
  acceptRawBodies(app);
  installRoute(app, methods);
  await app.listen({ host: options.host, port: options.port });
  return {
    url: serverAddress(app, 'http')!,
    registerRelayer(relayer) {
      if (relayers.has(relayer.name)) throw new Error(`control: relayer ${relayer.name} is registered twice`);
      relayers.set(relayer.name, relayer);
    },
    registerMethod: register,
    relayers: () => [...relayers.values()],
    close: () => app.close(),
  };
}

type RpcId = string | number | null;

function installRoute(app: FastifyInstance, methods: Map<string, ControlMethod>): void {
  const error = (id: RpcId, code: number, message: string) => ({
    jsonrpc: '2.0',
    id,
    error: { code, message },
  });
  const callOne = async (message: unknown) => {
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      return error(null, -32600, 'invalid request');
    const { id = null, method, params = [] } = message as { id?: RpcId; method?: unknown; params?: unknown };
    if (typeof method !== 'string') return error(id, -32600, 'invalid request');
    const handler = methods.get(method);
    if (!handler) return error(id, -32601, `the method ${method} does not exist/is not available`);
    if (!Array.isArray(params)) return error(id, INVALID_PARAMS, 'params must be an array');
    try {
      return { jsonrpc: '2.0', id, result: (await handler(params)) ?? null };
    } catch (err) {
      if (err instanceof ControlError) return error(id, err.rpcCode, err.message);
      app.log.error({ err, method }, 'control method failed');
      return error(id, -32603, (err as Error).message);
    }
  };
  app.post('/', async (request, reply) => {
    reply.header('content-type', 'application/json');
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      return reply.send(error(null, -32700, 'parse error'));
    }
    if (!Array.isArray(parsed)) return reply.send(await callOne(parsed));
    return reply.send(await Promise.all(parsed.slice(0, 100).map(callOne)));
  });
}
