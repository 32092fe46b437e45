import type {
  AssetJson,
  AssetListJson,
  ChainJson,
  ChainMetadata,
  RegistryChain,
  RegistryContribution,
} from './types.js';

const PROVIDER = 'weft devnet';
const MINITIA_VERSION = 'v1.1.0';

/** The fee denoms the devnet's chains use, as assets. */
const FEE_ASSETS: Record<string, { name: string; symbol: string; display: string; exponent: number }> = {
  uinit: { name: 'Initia', symbol: 'INIT', display: 'INIT', exponent: 6 },
  umin: { name: 'Min', symbol: 'MIN', display: 'MIN', exponent: 6 },
  GAS: { name: 'Gas', symbol: 'GAS', display: 'gas', exponent: 18 },
  uatom: { name: 'Cosmos Hub Atom', symbol: 'ATOM', display: 'ATOM', exponent: 6 },
  wei: { name: 'Ether', symbol: 'ETH', display: 'eth', exponent: 18 },
};

export function feeAsset(denom: string, cosmos: boolean): AssetJson {
  const known = FEE_ASSETS[denom];
  const exponent = known?.exponent ?? 0;
  const display = known?.display ?? denom;
  return {
    description: `The fee token of the devnet chain (${denom})`,
    denom_units: [{ denom, exponent: 0 }, ...(exponent > 0 ? [{ denom: display, exponent }] : [])],
    base: denom,
    display,
    name: known?.name ?? denom,
    symbol: known?.symbol ?? denom.toUpperCase(),
    ...(cosmos ? { type_asset: 'sdk.coin' } : {}),
  };
}

/** chain.json of one chain, with what the parts of the network contributed to it. */
export function chainJson(chain: RegistryChain, contributions: readonly RegistryContribution[]): ChainJson {
  const { info, plan, urls } = chain;
  const eth = chain.keyType === 'ethsecp256k1';
  const price = info.minGasPrice;
  const metadata: ChainMetadata = {};
  if (plan.role === 'l1') metadata.is_l1 = true;
  if (plan.role === 'rollup' && plan.vm)
    metadata.minitia = { type: `mini${plan.vm}`, version: MINITIA_VERSION };
  const channels = contributions.flatMap((c) => c.ibcChannels ?? []);
  if (plan.role !== 'external-evm') {
    metadata.ibc_channels = channels.map(({ chain_id, port_id, channel_id, version }) => ({
      chain_id,
      port_id,
      channel_id,
      version,
    }));
  }
  const opDenoms = contributions.flatMap((c) => c.opDenoms ?? []);
  for (const c of contributions) {
    if (c.opBridgeId !== undefined) metadata.op_bridge_id = c.opBridgeId;
    if (c.executorUri !== undefined) metadata.executor_uri = c.executorUri;
    Object.assign(metadata, c.metadata);
  }
  if (opDenoms.length > 0 || metadata.op_bridge_id !== undefined) metadata.op_denoms = [...new Set(opDenoms)];
  metadata.assetlist = './assetlist.json';
  const api = (address: string | undefined) => (address ? [{ address, provider: PROVIDER }] : []);
  return {
    $schema: '../chain.schema.json',
    chain_name: plan.chainName,
    chain_id: info.chainId,
    pretty_name: plan.prettyName,
    network_type: 'devnet',
    ...(info.evmChainId !== undefined ? { evm_chain_id: info.evmChainId } : {}),
    bech32_prefix: info.bech32Prefix,
    key_algos: [eth ? (plan.role === 'external-evm' ? 'ethsecp256k1' : 'initia_ethsecp256k1') : 'secp256k1'],
    slip44: eth ? 60 : 118,
    fees: {
      fee_tokens: [
        {
          denom: info.denom,
          fixed_min_gas_price: price,
          low_gas_price: price,
          average_gas_price: price * 1.5,
          high_gas_price: price * 2,
        },
      ],
    },
    apis: {
      rpc: api(urls.rpc),
      rest: api(urls.rest),
      ...(urls.jsonRpc ? { 'json-rpc': api(urls.jsonRpc) } : {}),
    },
    metadata,
  };
}

/** assetlist.json of one chain: its fee token first, then the contributed assets (first of a base wins). */
export function assetListJson(
  chain: RegistryChain,
  contributions: readonly RegistryContribution[],
): AssetListJson {
  const assets = [feeAsset(chain.info.denom, chain.plan.role !== 'external-evm')];
  for (const asset of contributions.flatMap((c) => c.assets ?? [])) {
    if (!assets.some((a) => a.base === asset.base)) assets.push(asset);
  }
  return { $schema: '../assetlist.schema.json', chain_name: chain.plan.chainName, assets };
}
