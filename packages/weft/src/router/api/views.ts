import type { HopGraph } from '../graph/hops.js';
import type { RouterAsset, RouterChain } from '../registry/types.js';

/**
 * `ChainJson` of `/v2/info/chains`, with Initia's `rpc`, `rest` and `evm_fee_asset`. Wallets sign an
 * `evm_tx` only on `chain_type` "evm" chains, found by `chain_id` (their EVM chain id): Initia chains,
 * minievm rollups too, are `cosmos` and get `cosmos_tx`s.
 */
export function chainJson(
  chain: RouterChain,
  assetOf: (chainId: string, denom: string) => RouterAsset | undefined,
) {
  const cosmos = chain.kind === 'cosmos';
  const fee = chain.feeAssets[0];
  const feeAsset = fee ? assetOf(chain.chainId, fee.denom) : undefined;
  return {
    chain_name: chain.chainName,
    chain_id: chain.chainId,
    pfm_enabled: cosmos,
    cosmos_module_support: { authz: false, feegrant: false },
    supports_memo: cosmos,
    logo_uri: chain.logoUri ?? '',
    bech32_prefix: chain.bech32Prefix,
    fee_assets: chain.feeAssets.map((f) => ({
      denom: f.denom,
      gas_price: { low: String(f.low), average: String(f.average), high: String(f.high) },
    })),
    chain_type: chain.kind,
    ibc_capabilities: {
      cosmos_pfm: cosmos,
      cosmos_ibc_hooks: false,
      cosmos_memo: cosmos,
      cosmos_autopilot: false,
    },
    is_testnet: chain.isTestnet,
    pretty_name: chain.prettyName,
    // EVM-only chains: their JSON-RPC, which wallets add with `wallet_addEthereumChain`.
    rpc: (cosmos ? chain.rpc : (chain.jsonRpc ?? chain.rpc)) ?? '',
    rest: chain.rest ?? '',
    ...(chain.evmChainId !== undefined ? { evm_chain_id: String(chain.evmChainId) } : {}),
    ...(chain.kind === 'evm' && feeAsset
      ? { evm_fee_asset: { name: feeAsset.name, symbol: feeAsset.symbol, decimals: feeAsset.decimals } }
      : {}),
    hidden: false,
  };
}

/** `AssetJson` of `/v2/fungible/assets` (and fees): origin and trace from the graph's denom traces. */
export function assetJson(graph: HopGraph, asset: RouterAsset) {
  const place = graph.place(asset.chainId, asset.denom);
  const origin = place ? graph.origin(place) : 'omnichain';
  const [originChainId, originDenom] = origin.includes('\n')
    ? origin.split('\n')
    : [asset.chainId, asset.denom];
  const isEvm = asset.tokenContract !== undefined;
  return {
    denom: asset.denom,
    chain_id: asset.chainId,
    origin_denom: originDenom!,
    origin_chain_id: originChainId!,
    trace: asset.ibcPath ?? '',
    is_cw20: false,
    is_evm: isEvm,
    is_svm: false,
    symbol: asset.symbol,
    name: asset.name,
    logo_uri: asset.logoUri ?? '',
    decimals: asset.decimals,
    ...(asset.tokenContract ? { token_contract: asset.tokenContract } : {}),
    description: asset.description ?? '',
    coingecko_id: asset.coingeckoId ?? '',
    recommended_symbol: asset.symbol,
    hidden: asset.hidden,
  };
}

/** A GET list parameter, repeated (`a=1&a=2`) or comma-joined (`a=1,2`). */
export function listParam(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim());
  const out = list.filter((v) => v !== '');
  return out.length > 0 ? out : undefined;
}

/** A GET boolean parameter: `true`/`1` or `false`/`0`; anything else is "not given". */
export function boolParam(value: boolean | string | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}
