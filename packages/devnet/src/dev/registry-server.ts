import cors from '@fastify/cors';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'weft/common/logger.js';
import type { AssetListJson, ChainJson } from '../registry/types.js';

/** A chain.json as registry.initia.xyz serves it: the folder's entry plus the services of the stack. */
export type ServedChainJson = ChainJson & {
  apis: ChainJson['apis'] & { indexer: Array<{ address: string; provider: string }> };
};

/** `profiles.json` entry: the fields wallets read (InterwovenKit's `ChainProfile`). */
export interface ProfileJson {
  chain_id: string;
  name: string;
  pretty_name: string;
  l2: boolean;
  status: 'live';
  op_bridge_id?: string;
}

export interface RegistrySource {
  chainJsons(): ChainJson[];
  assetLists(): AssetListJson[];
}

const PROVIDER = 'weft dev';

/**
 * The registry as its web service publishes it (`chains.json`, `profiles.json`, each chain's
 * `chains/<chain_name>/{chain,assetlist}.json`): only the chains the stack indexes (initia-registry lists
 * the L1 and its rollups; external chains come from the router), each with `apis.indexer` and its asset
 * list's absolute URL under `base`.
 */
export function servedRegistry(
  source: RegistrySource,
  base: string,
  indexerApis: ReadonlyMap<string, string>,
): { chains: ServedChainJson[]; profiles: ProfileJson[]; assetLists: Map<string, AssetListJson> } {
  const lists = new Map(source.assetLists().map((list) => [list.chain_name, list]));
  const chains: ServedChainJson[] = [];
  for (const chain of source.chainJsons()) {
    const indexer = indexerApis.get(chain.chain_id);
    if (!indexer) continue;
    chains.push({
      ...chain,
      apis: { ...chain.apis, indexer: [{ address: indexer, provider: PROVIDER }] },
      metadata: { ...chain.metadata, assetlist: `${base}/chains/${chain.chain_name}/assetlist.json` },
    });
  }
  const profiles = chains.map((chain) => ({
    chain_id: chain.chain_id,
    name: chain.chain_name,
    pretty_name: chain.pretty_name,
    l2: chain.metadata.is_l1 !== true,
    status: 'live' as const,
    ...(chain.metadata.op_bridge_id ? { op_bridge_id: chain.metadata.op_bridge_id } : {}),
  }));
  const assetLists = new Map<string, AssetListJson>();
  for (const chain of chains) {
    const list = lists.get(chain.chain_name);
    if (list) assetLists.set(chain.chain_name, list);
  }
  return { chains, profiles, assetLists };
}

/**
 * Serves `servedRegistry` over HTTP with CORS for any origin (wallet pages read it from the browser),
 * rebuilt on each request: the devnet's registry grows as channels and bridges come up.
 */
export async function createRegistryServer(options: {
  source: RegistrySource;
  indexerApis: ReadonlyMap<string, string>;
  logger: Logger;
}) {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
  });
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'] });
  let base = '';
  const served = () => servedRegistry(options.source, base, options.indexerApis);
  const notFound = (url: string) => ({ code: 5, message: `${url} is not in the registry`, details: [] });
  app.get('/chains.json', async () => served().chains);
  app.get('/profiles.json', async () => served().profiles);
  app.get<{ Params: { name: string; file: string } }>('/chains/:name/:file', async (request, reply) => {
    const { name, file } = request.params;
    const registry = served();
    const found =
      file === 'chain.json'
        ? registry.chains.find((c) => c.chain_name === name)
        : file === 'assetlist.json'
          ? registry.assetLists.get(name)
          : undefined;
    return found ?? reply.code(404).send(notFound(request.url));
  });
  app.setNotFoundHandler(async (request, reply) => reply.code(404).send(notFound(request.url)));
  return {
    async listen(host: string, port: number): Promise<string> {
      await app.listen({ host, port });
      const address = app.server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      base = `http://${host}:${bound}`;
      return base;
    },
    close: () => app.close(),
  };
}
