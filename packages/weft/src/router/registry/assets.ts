import { voucherPathIn } from '../graph/denoms.js';
import type { RawFile, RegistryWarn } from './read.js';
import type { AssetTrace, RouterAsset } from './types.js';

/** What reading an asset list needs from the rest of the registry. */
export interface AssetContext {
  /** A chain's id from its `chain_name` (listed chains, then profiles). */
  chainIdOfName(name: string): string | undefined;
  warn: RegistryWarn;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** One entry of `traces`, or why it cannot be read (the schema's required fields of its kind). */
function toTrace(raw: any, ctx: AssetContext): AssetTrace | string {
  const counterparty = raw?.counterparty;
  if (typeof raw?.type !== 'string') return 'has no type';
  if (typeof counterparty?.base_denom !== 'string') return `(${raw.type}) has no counterparty.base_denom`;
  const chain = raw.chain ?? {};
  const trace: AssetTrace = {
    kind: raw.type,
    fromChainId:
      text(counterparty.chain_id) ??
      (typeof counterparty.chain_name === 'string' ? ctx.chainIdOfName(counterparty.chain_name) : undefined),
    fromChainName: text(counterparty.chain_name),
    fromDenom: counterparty.base_denom,
    channelId: text(chain.channel_id),
    path: text(chain.path),
    bridgeId: chain.bridge_id === undefined ? undefined : String(chain.bridge_id),
    contract: text(chain.contract) ?? text(counterparty.contract),
    provider: text(raw.provider),
  };
  if (trace.kind === 'ibc' && !trace.path) return '(ibc) has no chain.path';
  if (trace.kind === 'op' && !trace.bridgeId) return '(op) has no chain.bridge_id';
  if (!trace.fromChainId && !trace.fromChainName) return `(${trace.kind}) names no counterparty chain`;
  return trace;
}

/**
 * One entry of an assetlist.json, or undefined when it cannot be used (no `base`, no decimals for its
 * `display` unit): skipped with a warning naming the file and the entry. A trace that cannot be read is
 * left out with a warning; the asset stays.
 */
export function toAsset(chainId: string, raw: any, name: string, ctx: AssetContext): RouterAsset | undefined {
  if (typeof raw?.base !== 'string' || raw.base === '') {
    ctx.warn(`${name} (${String(raw?.symbol ?? '?')}) has no base: skipped`);
    return undefined;
  }
  const base: string = raw.base;
  const units: any[] = Array.isArray(raw.denom_units) ? raw.denom_units : [];
  const display = units.find((u) => u?.denom === raw.display);
  if (!Number.isInteger(display?.exponent) || display.exponent < 0) {
    ctx.warn(
      `${name} (${base}): no denom unit gives the exponent of its display ${String(raw.display)}: skipped`,
    );
    return undefined;
  }
  const traces: AssetTrace[] = [];
  for (const [i, rawTrace] of (Array.isArray(raw.traces) ? raw.traces : []).entries()) {
    const trace = toTrace(rawTrace, ctx);
    if (typeof trace === 'string') ctx.warn(`${name} (${base}): traces[${i}] ${trace}: left out`);
    else traces.push(trace);
  }
  // A voucher's path is the one trace path that hashes to its denom (the last `ibc` step, normally).
  const ibcPath = base.startsWith('ibc/') ? voucherPathIn(traces, base) : undefined;
  if (base.startsWith('ibc/') && !ibcPath)
    ctx.warn(
      `${name} (${base}): no ibc trace's chain.path hashes to it: routes cannot tell where it comes from`,
    );
  const last = traces.at(-1);
  const wraps =
    last?.kind === 'wrapped' && last.fromChainId
      ? {
          chainId: last.fromChainId,
          denom: last.fromDenom,
          ...(last.contract ? { contract: last.contract } : {}),
          ...(last.provider ? { provider: last.provider } : {}),
        }
      : undefined;
  return {
    chainId,
    denom: base,
    symbol: String(raw.symbol ?? raw.display ?? base),
    name: String(raw.name ?? raw.symbol ?? base),
    decimals: display.exponent,
    description: text(raw.description),
    logoUri: text(raw.logo_URIs?.png),
    coingeckoId: text(raw.coingecko_id),
    tokenContract: typeof raw.address === 'string' && raw.address.startsWith('0x') ? raw.address : undefined,
    ibcPath,
    opBridgeId: last?.kind === 'op' ? last.bridgeId : undefined,
    ...(wraps ? { wraps } : {}),
    traces,
    hidden: raw.hidden === true,
  };
}

/** The assets of one chain's assetlist.json; duplicates of a base are skipped with a warning. */
export function readAssetList(chainId: string, file: RawFile, ctx: AssetContext): RouterAsset[] {
  if (!Array.isArray(file.json?.assets)) {
    ctx.warn(`${file.source}: has no assets list: skipped`);
    return [];
  }
  const seen = new Set<string>();
  const out: RouterAsset[] = [];
  for (const [i, raw] of file.json.assets.entries()) {
    const asset = toAsset(chainId, raw, `${file.source}: assets[${i}]`, ctx);
    if (!asset) continue;
    if (seen.has(asset.denom)) {
      ctx.warn(`${file.source}: assets[${i}] repeats ${asset.denom}: skipped`);
      continue;
    }
    seen.add(asset.denom);
    out.push(asset);
  }
  return out;
}
