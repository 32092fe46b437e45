import { type Devnet, type Manifest, vmOf } from '../devnet.js';
import { WALLET_BUILD_COMMAND } from './wallet-page.js';

/** What the dev stack serves beside the devnet's nodes: an indexer API per indexed chain, the router. */
export interface StackUrls {
  /** Chain id → its indexer API. */
  indexerApis: ReadonlyMap<string, string>;
  router: string;
  dashboard: string;
  /** The registry service (`chains.json`, as registry.initia.xyz). */
  registry: string;
  /** The wallet page, or null while it is not built. */
  wallet: string | null;
}

/** The manifest `weft dev --manifest` writes: the devnet's, with each chain's `indexer_api`, the `router` and the `dashboard`. */
export type StackManifest = Omit<Manifest, 'chains'> & {
  router: string;
  dashboard: string;
  registry_url: string;
  wallet: string | null;
  chains: Array<Manifest['chains'][number] & { indexer_api: string | null }>;
};

export function stackManifest(devnet: Devnet, urls: StackUrls): StackManifest {
  const manifest = devnet.manifest();
  return {
    ...manifest,
    router: urls.router,
    dashboard: urls.dashboard,
    registry_url: urls.registry,
    wallet: urls.wallet,
    chains: manifest.chains.map((c) => ({ ...c, indexer_api: urls.indexerApis.get(c.chain_id) ?? null })),
  };
}

/**
 * The table printed once the stack serves: a row per chain (id, role, VM, height, node URLs and its
 * indexer API where it has one), then the router, the dashboard, the registry service, the wallet page
 * (or how to build it) and the devnet's control surface. Each cell after the
 * first is `key=value`, so a line reads as one regex.
 */
export function stackTable(devnet: Devnet, urls: StackUrls): string {
  const rows = devnet.all.map((network) => {
    const { chain, role } = network;
    const nodes: { rpc?: string; rest?: string; jsonRpc?: string } = network.urls;
    const api = urls.indexerApis.get(chain.info.chainId);
    const cells = [
      `role=${role}`.padEnd(21),
      `vm=${vmOf(network) ?? '-'}`.padEnd(7),
      `height=${chain.latestHeight()}`,
      nodes.rpc ? `rpc=${nodes.rpc}` : '',
      nodes.rest ? `rest=${nodes.rest}` : '',
      nodes.jsonRpc ? `json-rpc=${nodes.jsonRpc}` : '',
      api ? `api=${api}` : '',
    ].filter(Boolean);
    return `${chain.info.chainId.padEnd(16)} ${cells.join(' ')}`;
  });
  const registry = devnet.manifest().registry;
  rows.push(`${'router'.padEnd(16)} url=${urls.router}`);
  rows.push(`${'dashboard'.padEnd(16)} url=${urls.dashboard}`);
  rows.push(`${'registry'.padEnd(16)} url=${urls.registry}`);
  rows.push(
    `${'wallet'.padEnd(16)} ${urls.wallet ? `url=${urls.wallet}` : `not-built build="${WALLET_BUILD_COMMAND}"`}`,
  );
  rows.push(`${'control'.padEnd(16)} url=${devnet.control.url}${registry ? ` registry=${registry}` : ''}`);
  return `${rows.join('\n')}\n`;
}

/** What the dev stack's dashboard reads: every chain with its role and indexer API, and the router. */
export function stackDashboardConfig(devnet: Devnet, urls: Pick<StackUrls, 'indexerApis' | 'router'>) {
  return {
    router: urls.router,
    chains: devnet.all.map(({ chain, role }) => ({
      chain_id: chain.info.chainId,
      role,
      indexer_api: urls.indexerApis.get(chain.info.chainId) ?? null,
    })),
  };
}
