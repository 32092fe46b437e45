import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, errorMessage } from '../../common/errors.js';
import { readNftChannels } from './nft-channels.js';
import type {
  IbcChannel,
  NodeOverrides,
  OmnichainEndpoint,
  RouterAsset,
  RouterChain,
  RouterRegistry,
} from './types.js';

/** The raw files of an initia-registry style registry: chain.json, assetlist.json per chain, `_IBC/*.json`. */
interface RawRegistry {
  chains: any[];
  assetLists: Map<string, any>;
  ibcFiles: any[];
}

const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));

function readFolder(dir: string): RawRegistry {
  const entries = readdirSync(dir).filter((name) => !name.startsWith('_') && !name.startsWith('.'));
  const chains = existsSync(join(dir, 'chains.json'))
    ? (readJson(join(dir, 'chains.json')) as any[])
    : entries
        .filter((name) => existsSync(join(dir, name, 'chain.json')))
        .map((name) => readJson(join(dir, name, 'chain.json')));
  const assetLists = new Map<string, any>();
  for (const chain of chains) {
    const path = join(dir, String(chain.chain_name), 'assetlist.json');
    if (existsSync(path)) assetLists.set(chain.chain_id, readJson(path));
  }
  const ibcDir = join(dir, '_IBC');
  const ibcFiles = existsSync(ibcDir)
    ? readdirSync(ibcDir)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => readJson(join(ibcDir, name)))
    : [];
  return { chains, assetLists, ibcFiles };
}

async function fetchJson(url: string): Promise<any> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/**
 * A registry web service: `chains.json`, then each chain's asset list from where its
 * `metadata.assetlist` points (as registry.initia.xyz publishes it), else `<chain_name>/assetlist.json`
 * or `chains/<chain_name>/assetlist.json` beside `chains.json`. A chain without one has no assets.
 */
async function readUrl(base: string): Promise<RawRegistry> {
  const root = base.replace(/\/+$/, '');
  const chains = (await fetchJson(`${root}/chains.json`)) as any[];
  const assetLists = new Map<string, any>();
  await Promise.all(
    chains.map(async (chain) => {
      const given = typeof chain.metadata?.assetlist === 'string' ? [chain.metadata.assetlist] : [];
      const places = [
        ...given,
        `${root}/${chain.chain_name}/assetlist.json`,
        `${root}/chains/${chain.chain_name}/assetlist.json`,
      ];
      for (const url of places) {
        const list = await fetchJson(url).catch(() => undefined);
        if (list) {
          assetLists.set(chain.chain_id, list);
          return;
        }
      }
    }),
  );
  return { chains, assetLists, ibcFiles: [] };
}

const firstAddress = (list: unknown): string | undefined =>
  Array.isArray(list) && typeof list[0]?.address === 'string'
    ? list[0].address.replace(/\/+$/, '')
    : undefined;

function toOmnichain(raw: any): OmnichainEndpoint | undefined {
  if (!raw || typeof raw !== 'object' || typeof raw.eid !== 'number') return undefined;
  return {
    eid: raw.eid,
    kind: raw.kind === 'move' ? 'move' : 'evm',
    endpoint: String(raw.endpoint),
    oft: String(raw.oft),
    denom: String(raw.denom),
    decimals: Number(raw.decimals),
    sharedDecimals: Number(raw.shared_decimals ?? 6),
    peers: Array.isArray(raw.peers) ? raw.peers.map(Number) : [],
  };
}

function toChain(raw: any, overrides: NodeOverrides): RouterChain {
  const chainId = String(raw.chain_id);
  const meta = raw.metadata ?? {};
  const apis = raw.apis ?? {};
  const override = overrides[chainId] ?? {};
  const rpc = override.rpc ?? firstAddress(apis.rpc);
  const rest = override.rest ?? firstAddress(apis.rest);
  const jsonRpc = override.jsonRpc ?? firstAddress(apis['json-rpc']);
  const evmChainId = typeof raw.evm_chain_id === 'number' ? raw.evm_chain_id : undefined;
  return {
    chainId,
    chainName: String(raw.chain_name),
    prettyName: String(raw.pretty_name ?? raw.chain_name),
    // A chain with EVM JSON-RPC and no Cosmos REST is an Ethereum-like chain; rollups speak both.
    kind: jsonRpc && !rest && evmChainId !== undefined ? 'evm' : 'cosmos',
    bech32Prefix: String(raw.bech32_prefix ?? 'init'),
    rpc,
    rest,
    jsonRpc,
    evmChainId,
    isL1: meta.is_l1 === true,
    isTestnet: raw.network_type !== 'mainnet',
    minitia: typeof meta.minitia?.type === 'string' ? meta.minitia.type : undefined,
    opBridgeId: meta.op_bridge_id === undefined ? undefined : String(meta.op_bridge_id),
    opDenoms: Array.isArray(meta.op_denoms) ? meta.op_denoms.map(String) : [],
    executorUri: typeof meta.executor_uri === 'string' ? meta.executor_uri : undefined,
    ibcChannels: (Array.isArray(meta.ibc_channels) ? meta.ibc_channels : [])
      .filter((c: any) => c.port_id === 'transfer')
      .map(
        (c: any): IbcChannel => ({
          counterpartyChainId: String(c.chain_id),
          portId: 'transfer',
          channelId: String(c.channel_id),
          version: String(c.version ?? 'ics20-1'),
        }),
      ),
    nftChannels: [],
    feeAssets: (raw.fees?.fee_tokens ?? []).map((t: any) => ({
      denom: String(t.denom),
      low: Number(t.low_gas_price ?? t.fixed_min_gas_price ?? 0),
      average: Number(t.average_gas_price ?? t.low_gas_price ?? 0),
      high: Number(t.high_gas_price ?? t.average_gas_price ?? 0),
    })),
    omnichain: toOmnichain(meta.omnichain),
    keyAlgos: Array.isArray(raw.key_algos) ? raw.key_algos.map(String) : [],
    logoUri: typeof raw.logo_URIs?.png === 'string' ? raw.logo_URIs.png : undefined,
  };
}

/** A `wrapped` trace's counterparty: its chain (by id, else by name) and the denom it wraps. */
function wrapsOf(trace: any, chainIdOfName: (name: string) => string | undefined): RouterAsset['wraps'] {
  const counterparty = trace?.counterparty;
  if (typeof counterparty?.base_denom !== 'string') return undefined;
  const chainId =
    typeof counterparty.chain_id === 'string'
      ? counterparty.chain_id
      : chainIdOfName(String(counterparty.chain_name));
  if (!chainId) return undefined;
  const contract = trace.chain?.contract ?? counterparty.contract;
  return { chainId, denom: counterparty.base_denom, ...(typeof contract === 'string' ? { contract } : {}) };
}

function toAsset(
  chainId: string,
  raw: any,
  chainIdOfName: (name: string) => string | undefined,
): RouterAsset {
  const display = (raw.denom_units ?? []).find((u: any) => u.denom === raw.display);
  const traces: any[] = Array.isArray(raw.traces) ? raw.traces : [];
  const ibcTrace = traces.find((t) => t.type === 'ibc');
  const opTrace = traces.find((t) => t.type === 'op');
  const wraps = wrapsOf(
    traces.find((t) => t.type === 'wrapped'),
    chainIdOfName,
  );
  return {
    chainId,
    denom: String(raw.base),
    symbol: String(raw.symbol ?? raw.display ?? raw.base),
    name: String(raw.name ?? raw.symbol ?? raw.base),
    decimals: Number(display?.exponent ?? 0),
    description: typeof raw.description === 'string' ? raw.description : undefined,
    logoUri: typeof raw.logo_URIs?.png === 'string' ? raw.logo_URIs.png : undefined,
    coingeckoId: typeof raw.coingecko_id === 'string' ? raw.coingecko_id : undefined,
    tokenContract: typeof raw.address === 'string' && raw.address.startsWith('0x') ? raw.address : undefined,
    ibcPath: typeof ibcTrace?.chain?.path === 'string' ? ibcTrace.chain.path : undefined,
    opBridgeId: opTrace?.chain?.bridge_id === undefined ? undefined : String(opTrace.chain.bridge_id),
    ...(wraps ? { wraps } : {}),
    hidden: raw.hidden === true,
  };
}

/** Fills in each channel end's far channel id: from `_IBC` files, else from the far chain's own entry. */
function joinChannels(chains: RouterChain[], ibcFiles: any[]): void {
  const byName = new Map(chains.map((c) => [c.chainName, c]));
  const far = new Map<string, string>();
  for (const file of ibcFiles) {
    const a = byName.get(file.chain_1?.chain_name);
    const b = byName.get(file.chain_2?.chain_name);
    if (!a || !b) continue;
    for (const channel of file.channels ?? []) {
      if (channel.chain_1?.port_id !== 'transfer') continue;
      far.set(`${a.chainId}/${channel.chain_1.channel_id}`, channel.chain_2.channel_id);
      far.set(`${b.chainId}/${channel.chain_2.channel_id}`, channel.chain_1.channel_id);
    }
  }
  const byId = new Map(chains.map((c) => [c.chainId, c]));
  for (const chain of chains) {
    for (const end of chain.ibcChannels) {
      end.counterpartyChannelId = far.get(`${chain.chainId}/${end.channelId}`);
      if (end.counterpartyChannelId) continue;
      // Without an _IBC file: the far chain's only transfer channel back to this chain.
      const back = byId
        .get(end.counterpartyChainId)
        ?.ibcChannels.filter((c) => c.counterpartyChainId === chain.chainId);
      if (back?.length === 1) end.counterpartyChannelId = back[0]!.channelId;
    }
    chain.ibcChannels = chain.ibcChannels.filter(
      (c) => c.counterpartyChannelId && byId.has(c.counterpartyChainId),
    );
  }
}

export function buildRegistry(raw: RawRegistry, overrides: NodeOverrides = {}): RouterRegistry {
  const chains = raw.chains
    .map((c) => toChain(c, overrides))
    .sort((a, b) => a.chainId.localeCompare(b.chainId));
  joinChannels(chains, raw.ibcFiles);
  readNftChannels(chains, raw.chains, raw.ibcFiles);
  const assets: RouterAsset[] = [];
  const chainIdOfName = (name: string) => chains.find((c) => c.chainName === name)?.chainId;
  for (const chain of chains) {
    for (const asset of raw.assetLists.get(chain.chainId)?.assets ?? []) {
      if (typeof asset?.base === 'string') assets.push(toAsset(chain.chainId, asset, chainIdOfName));
    }
  }
  const chainById = new Map(chains.map((c) => [c.chainId, c]));
  const chainByEvmId = new Map(
    chains.filter((c) => c.evmChainId !== undefined).map((c) => [String(c.evmChainId), c]),
  );
  const assetByKey = new Map(assets.map((a) => [`${a.chainId}\n${a.denom}`, a]));
  for (const a of assets) {
    if (a.tokenContract) assetByKey.set(`${a.chainId}\n${a.tokenContract.toLowerCase()}`, a);
  }
  return {
    chains,
    assets,
    chain: (chainId) => chainById.get(chainId),
    chainByAnyId: (id) => chainById.get(id) ?? chainByEvmId.get(id),
    asset: (chainId, denom) =>
      assetByKey.get(`${chainId}\n${denom}`) ?? assetByKey.get(`${chainId}\n${denom.toLowerCase()}`),
    l1: () => chains.find((c) => c.isL1),
  };
}

const REGISTRY_HINT =
  'set --registry / REGISTRY to an initia-registry style folder or URL: `weft devnet --registry <folder>` writes one for its chains';

/** Reads a registry folder or URL (`REGISTRY`); a registry that cannot be read stops the start. */
export async function loadRegistry(source: string, overrides: NodeOverrides = {}): Promise<RouterRegistry> {
  let raw: RawRegistry;
  try {
    if (/^https?:\/\//.test(source)) raw = await readUrl(source);
    else if (!existsSync(source)) {
      throw new ConfigError('REGISTRY', `the registry folder ${source} does not exist`, {
        hint: REGISTRY_HINT,
      });
    } else if (statSync(source).isDirectory()) raw = readFolder(source);
    else throw new Error('not a folder or an http(s) URL');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError('REGISTRY', `${source}: ${errorMessage(err)}`, { hint: REGISTRY_HINT });
  }
  if (raw.chains.length === 0)
    throw new ConfigError('REGISTRY', `${source}: no chains`, { hint: REGISTRY_HINT });
  return buildRegistry(raw, overrides);
}
