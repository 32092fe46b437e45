import type { FastifyInstance } from 'fastify';
import type { Logger } from 'weft/common/logger.js';
import type { ChainNode } from '../node.js';
import { createCometRpcServer } from './comet-rpc.js';
import { createFaults, type FaultOptions } from './faults.js';
import { serverAddress } from './http-app.js';
import { createJsonRpcServer } from './json-rpc.js';
import { createRestServer } from './rest.js';

export { createCometRpcServer } from './comet-rpc.js';
export type { FaultOptions } from './faults.js';
export { createJsonRpcServer } from './json-rpc.js';
export { createRestServer } from './rest.js';

export interface NodeServersOptions {
  host?: string;
  /** 0 (or absent) picks a free port. */
  ports?: { rpc?: number; rest?: number; jsonRpc?: number };
  faults?: Partial<FaultOptions>;
  logger?: Logger;
  cacheBytes?: number;
  /** REST `txs/block/{h}` answers `next_key: null` as the real SDK does. */
  nullNextKey?: boolean;
  /** The surfaces to serve (default: all the chain has); an Ethereum chain serves `jsonRpc` only. */
  surfaces?: ReadonlyArray<'rpc' | 'rest' | 'jsonRpc'>;
}

export interface NodeServers {
  /** `rpc` and `rest` are empty only when `surfaces` left them out. */
  urls: { rpc: string; rest: string; jsonRpc?: string };
  /** Changes the faults of all three servers; the random streams restart from the seed. */
  setFaults(faults: Partial<FaultOptions>): void;
  close(): Promise<void>;
}

/** Starts a chain's node surfaces on loopback: CometBFT RPC, Cosmos REST and (on an EVM rollup) EVM JSON-RPC. */
export async function startNodeServers(
  node: ChainNode,
  options: NodeServersOptions = {},
): Promise<NodeServers> {
  const host = options.host ?? '127.0.0.1';
  const faults = createFaults(options.faults);
  const shared = { faults, logger: options.logger, cacheBytes: options.cacheBytes };
  const apps: FastifyInstance[] = [];
  const listen = async (app: FastifyInstance, port: number | undefined) => {
    apps.push(app);
    await app.listen({ host, port: port ?? 0 });
    return serverAddress(app, 'http')!;
  };
  const serves = (surface: 'rpc' | 'rest' | 'jsonRpc') =>
    !options.surfaces || options.surfaces.includes(surface);
  try {
    const rpc = serves('rpc')
      ? await listen(createCometRpcServer(node, shared), options.ports?.rpc)
      : undefined;
    const rest = serves('rest')
      ? await listen(
          createRestServer(node, { ...shared, nullNextKey: options.nullNextKey }),
          options.ports?.rest,
        )
      : undefined;
    const jsonRpc =
      node.evm && serves('jsonRpc')
        ? await listen(createJsonRpcServer(node, shared), options.ports?.jsonRpc)
        : undefined;
    return {
      urls: { rpc: rpc ?? '', rest: rest ?? '', ...(jsonRpc ? { jsonRpc } : {}) },
      setFaults: (changes) => faults.set(changes),
      close: async () => {
        await Promise.all(apps.map((app) => app.close()));
      },
    };
  } catch (err) {
    await Promise.all(apps.map((app) => app.close()));
    throw err;
  }
}
