import { existsSync, statSync } from 'node:fs';
import { ConfigError, errorMessage } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import { isErc20Denom } from '../../protocol/evm-denom.js';
import { readAssetList } from './assets.js';
import { checkIbcFiles, joinChannels, readIbcChannels } from './channels.js';
import { readNftChannels } from './nft-channels.js';
import { type RawChain, type RawRegistry, type RegistryWarn, readFolder, readUrl } from './read.js';
import type {
  ChainProfile,
  NodeOverrides,
  OmnichainEndpoint,
  RouterAsset,
  RouterChain,
  RouterRegistry,
} from './types.js';

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

function toChain({ json: raw, source }: RawChain, overrides: NodeOverrides, warn: RegistryWarn): RouterChain {
  const chainId: string = raw.chain_id;
  const meta = raw.metadata ?? {};
  const apis = raw.apis ?? {};
  const override = overrides[chainId] ?? {};
  const rpc = override.rpc ?? firstAddress(apis.rpc);
  const rest = override.rest ?? firstAddress(apis.rest);
  const jsonRpc = override.jsonRpc ?? firstAddress(apis['json-rpc']);
  const evmChainId = typeof raw.evm_chain_id === 'number' ? raw.evm_chain_id : undefined;
  if (meta.op_denoms !== undefined && !Array.isArray(meta.op_denoms))
    warn(`${source}: metadata.op_denoms is not a list: no denom is deposited into ${chainId}`);
  return {
    chainId,
    chainName: raw.chain_name,
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
    ibcChannels: readIbcChannels(raw, source, warn),
    nftChannels: [],
    feeAssets: (Array.isArray(raw.fees?.fee_tokens) ? raw.fees.fee_tokens : []).map((t: any) => ({
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

const named = (value: unknown) => typeof value === 'string' && value !== '';

/** The chain.json entries the router can use: each names its chain_id and chain_name, once. */
function usableChains(raw: RawChain[], warn: RegistryWarn): RawChain[] {
  const ids = new Set<string>();
  const names = new Set<string>();
  return raw.filter(({ json, source }) => {
    const label = `${source} (${named(json?.chain_name) ? json.chain_name : named(json?.chain_id) ? json.chain_id : '?'})`;
    if (!json || typeof json !== 'object' || Array.isArray(json))
      warn(`${source}: not a chain object: skipped`);
    else if (!named(json.chain_id)) warn(`${label}: has no chain_id: skipped`);
    else if (!named(json.chain_name)) warn(`${label}: has no chain_name: skipped`);
    else if (ids.has(json.chain_id)) warn(`${label}: repeats chain_id ${json.chain_id}: skipped`);
    else if (names.has(json.chain_name)) warn(`${label}: repeats chain_name ${json.chain_name}: skipped`);
    else {
      ids.add(json.chain_id);
      names.add(json.chain_name);
      return true;
    }
    return false;
  });
}

function toProfiles(raw: RawRegistry['profiles'], warn: RegistryWarn): ChainProfile[] {
  return raw.flatMap(({ json, source }) => {
    if (!json || typeof json !== 'object' || !named(json.name)) {
      warn(`${source}: not a profile with a name: skipped`);
      return [];
    }
    // Upcoming rollups have no chain id yet: nothing can name them.
    if (!named(json.chain_id)) return [];
    return [
      {
        chainId: json.chain_id,
        name: json.name,
        prettyName: String(json.pretty_name ?? json.name),
        status: String(json.status ?? ''),
        ...(json.op_bridge_id === undefined ? {} : { opBridgeId: String(json.op_bridge_id) }),
      },
    ];
  });
}

/**
 * The router's registry from the raw files. An entry that is broken or of a kind the router does not
 * know is skipped with a `warn` naming it (the file, the chain_name, the asset's base); the rest loads.
 */
export function buildRegistry(
  raw: RawRegistry,
  overrides: NodeOverrides = {},
  warn: RegistryWarn = () => {},
): RouterRegistry {
  const usable = usableChains(raw.chains, warn);
  const chains = usable
    .map((c) => toChain(c, overrides, warn))
    .sort((a, b) => a.chainId.localeCompare(b.chainId));
  const ibcFiles = checkIbcFiles(raw.ibcFiles, new Set(chains.map((c) => c.chainName)), warn);
  joinChannels(chains, ibcFiles);
  readNftChannels(
    chains,
    usable.map((c) => c.json),
    ibcFiles.map((f) => f.json),
  );
  const profiles = toProfiles(raw.profiles, warn);
  const idOfName = new Map([
    ...profiles.map((p) => [p.name, p.chainId] as const),
    ...chains.map((c) => [c.chainName, c.chainId] as const),
  ]);
  const ctx = { chainIdOfName: (name: string) => idOfName.get(name), warn };
  const assets: RouterAsset[] = [];
  for (const entry of usable) {
    if (entry.assetList) assets.push(...readAssetList(entry.json.chain_id, entry.assetList, ctx));
  }
  assets.sort((a, b) => a.chainId.localeCompare(b.chainId));
  const chainById = new Map(chains.map((c) => [c.chainId, c]));
  const chainByEvmId = new Map(
    chains.filter((c) => c.evmChainId !== undefined).map((c) => [String(c.evmChainId), c]),
  );
  const assetByKey = new Map(assets.map((a) => [`${a.chainId}\n${a.denom}`, a]));
  for (const a of assets) {
    if (a.tokenContract) assetByKey.set(`${a.chainId}\n${a.tokenContract.toLowerCase()}`, a);
    // minievm reads the contract of an `evm/` denom in any case (x/evm/types/denom.go); msgs name it
    // as listed, since the voucher a transfer mints hashes that spelling.
    if (isErc20Denom(a.denom)) assetByKey.set(`${a.chainId}\n${a.denom.toLowerCase()}`, a);
  }
  const profileById = new Map(profiles.map((p) => [p.chainId, p]));
  return {
    chains,
    assets,
    chain: (chainId) => chainById.get(chainId),
    chainByAnyId: (id) => chainById.get(id) ?? chainByEvmId.get(id),
    asset: (chainId, denom) =>
      assetByKey.get(`${chainId}\n${denom}`) ?? assetByKey.get(`${chainId}\n${denom.toLowerCase()}`),
    l1: () => chains.find((c) => c.isL1),
    profile: (chainId) => profileById.get(chainId),
  };
}

const REGISTRY_HINT =
  'set --registry / REGISTRY to an initia-registry style folder or URL: `weft devnet --registry <folder>` writes one for its chains';

/**
 * Reads a registry folder or URL (`REGISTRY`); a registry that cannot be read at all, or lists no chain
 * the router can use, stops the start. Entries it skips are logged as warnings.
 */
export async function loadRegistry(
  source: string,
  overrides: NodeOverrides = {},
  options: { logger?: Logger } = {},
): Promise<RouterRegistry> {
  const warn: RegistryWarn = (message) => options.logger?.warn({ registry: source }, message);
  let raw: RawRegistry;
  try {
    if (/^https?:\/\//.test(source)) raw = await readUrl(source);
    else if (!existsSync(source)) {
      throw new ConfigError('REGISTRY', `the registry folder ${source} does not exist`, {
        hint: REGISTRY_HINT,
      });
    } else if (statSync(source).isDirectory()) raw = readFolder(source, warn);
    else throw new Error('not a folder or an http(s) URL');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError('REGISTRY', `${source}: ${errorMessage(err)}`, { hint: REGISTRY_HINT });
  }
  const registry = buildRegistry(raw, overrides, warn);
  if (registry.chains.length === 0)
    throw new ConfigError('REGISTRY', `${source}: no chains`, { hint: REGISTRY_HINT });
  return registry;
}
