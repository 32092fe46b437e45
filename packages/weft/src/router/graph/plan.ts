import { UpstreamError } from '../../common/errors.js';
import { NoRouteError, RouteRequestError, SwapRequiredError, UnknownAssetError } from '../errors.js';
import type { RouterRegistry } from '../registry/types.js';
import { noRouteReason, unfollowedReason } from './explain.js';
import { type Hop, type HopGraph, MAX_HOPS, type Place } from './hops.js';

/**
 * Estimated seconds per hop. An OPinit withdrawal waits for the bridge: an output covering it (the
 * output interval) and that output's finalization period, read from the L1 (`ChainFacts`).
 */
export const HOP_SECONDS = { ibc: 30, op_deposit: 15, oft: 60 } as const;

/**
 * An OPinit withdrawal's estimate when the L1 does not say what its bridge's are: the 168 h finalization
 * period and 1 min output interval that Weave launches rollups with (a bridge's own may be shorter).
 */
export const ASSUMED_WITHDRAWAL_SECONDS = 168 * 3600 + 60;

export interface ChainFacts {
  /** Finalization period plus output interval of a bridge, in seconds. */
  withdrawalSeconds(bridgeId: string): Promise<number>;
  /** Native fee of one OFT send from an endpoint to a peer (wei on EVM, the fee denom's base unit on the Move L1). */
  omnichainFee(chainId: string, oft: string, dstEid: number): Promise<bigint>;
  /** The chain's latest block time (ms since the epoch), or undefined when its node does not say. */
  chainTimeMs(chainId: string): Promise<number | undefined>;
  /** The ERC20 (0x) of a bank denom on a minievm rollup (`/minievm/evm/v1/contracts/by_denom`). */
  erc20Of(chainId: string, denom: string): Promise<string>;
  /** An ERC20 allowance on an EVM chain, read now (not kept). */
  erc20Allowance(chainId: string, token: string, owner: string, spender: string): Promise<bigint>;
}

export interface PlannedHop {
  hop: Hop;
  amountIn: bigint;
  amountOut: bigint;
  seconds: number;
  /** Native fee charged in addition on the source chain (OFT messaging fee). */
  additionalFee?: bigint;
  /** The L1 did not say the withdrawal's timing: `seconds` is ASSUMED_WITHDRAWAL_SECONDS. */
  assumedSeconds?: true;
}

export interface Plan {
  source: Place;
  dest: Place;
  hops: PlannedHop[];
  amountIn: bigint;
  amountOut: bigint;
  seconds: number;
}

export interface RouteQuery {
  sourceChainId: string;
  sourceDenom: string;
  destChainId: string;
  destDenom: string;
  amountIn?: bigint;
  amountOut?: bigint;
  isOpWithdraw?: boolean;
  /** Skip's `bridges`: only hops over these (`IBC`, `OPINIT`, `LAYER_ZERO`); absent: all. */
  bridges?: string[];
}

const BRIDGE_OF: Record<Hop['kind'], string> = {
  ibc: 'IBC',
  op_deposit: 'OPINIT',
  op_withdraw: 'OPINIT',
  oft: 'LAYER_ZERO',
};

/** Every loop-free path of at most MAX_HOPS from `source` to `dest`; after an IBC hop only IBC follows, and OPinit and OFT hops stand alone (one tx). */
export function findPaths(graph: HopGraph, source: Place, dest: Place): Hop[][] {
  const found: Hop[][] = [];
  const walk = (at: Place, path: Hop[], visited: Set<string>) => {
    if (path.length > 0 && at.chainId === dest.chainId && at.denom === dest.denom) {
      found.push(path);
      return;
    }
    if (path.length >= MAX_HOPS) return;
    if (path.length > 0 && path[0]!.kind !== 'ibc') return;
    for (const { hop, to } of graph.hopsFrom(at)) {
      if (path.length > 0 && hop.kind !== 'ibc') continue;
      if (visited.has(to.chainId)) continue;
      visited.add(to.chainId);
      walk(to, [...path, hop], visited);
      visited.delete(to.chainId);
    }
  };
  walk(source, [], new Set([source.chainId]));
  return found;
}

/**
 * How a hop changes the amount's unit: OFT amounts travel in shared decimals (local dust below them is
 * not sent); a deposit whose hook converts with minievm's ERC20Wrapper pays out in the token's decimals,
 * and a withdrawal or send out of such a token in the coin's (the wrapper drops the dust below them).
 */
function hopScale(hop: Hop): { down: bigint; up: bigint; why: string } | undefined {
  if (hop.kind === 'oft')
    return {
      down: 10n ** BigInt(hop.source.decimals - hop.source.sharedDecimals),
      up: 10n ** BigInt(hop.destination.decimals - hop.destination.sharedDecimals),
      why: "the OFT's shared decimals",
    };
  if ((hop.kind === 'op_withdraw' || hop.kind === 'ibc') && hop.unwrap?.kind === 'to_remote') {
    const { localDecimals: from, remoteDecimals: to } = hop.unwrap;
    return {
      down: 10n ** BigInt(Math.max(0, from - to)),
      up: 10n ** BigInt(Math.max(0, to - from)),
      why: `the Decimal Wrapper turns ${from} decimals back into ${to}`,
    };
  }
  if (hop.kind === 'op_deposit' && hop.hook?.kind === 'to_local') {
    const { remoteDecimals: from, localDecimals: to } = hop.hook;
    return {
      down: 10n ** BigInt(Math.max(0, from - to)),
      up: 10n ** BigInt(Math.max(0, to - from)),
      why: `the Decimal Wrapper turns ${from} decimals into ${to}`,
    };
  }
  return undefined;
}

function forward(hop: Hop, amount: bigint): bigint {
  const scale = hopScale(hop);
  return scale ? (amount / scale.down) * scale.up : amount;
}

function backward(hop: Hop, amount: bigint): bigint {
  const scale = hopScale(hop);
  if (!scale) return amount;
  if (amount % scale.up !== 0n)
    throw new RouteRequestError(`amount_out must be a multiple of ${scale.up} (${scale.why})`);
  return (amount / scale.up) * scale.down;
}

/** A withdrawal's seconds from the L1, or the assumed ones when the L1 does not answer. */
async function withdrawalSeconds(facts: ChainFacts, bridgeId: string) {
  try {
    return { seconds: await facts.withdrawalSeconds(bridgeId) };
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    return { seconds: ASSUMED_WITHDRAWAL_SECONDS, assumedSeconds: true as const };
  }
}

/** A path's signature: the last tie-breaker, so that equal inputs always give the same route. */
const signature = (hops: Hop[]) =>
  hops
    .map((h) => `${h.kind}:${h.from}>${h.to}:${h.denomIn}>${h.denomOut}:${'channel' in h ? h.channel : ''}`)
    .join('|');

export async function pricePath(facts: ChainFacts, hops: Hop[], query: RouteQuery): Promise<PlannedHop[]> {
  let amounts: bigint[];
  if (query.amountIn !== undefined) {
    amounts = [query.amountIn];
    for (const hop of hops) amounts.push(forward(hop, amounts.at(-1)!));
  } else {
    amounts = [query.amountOut!];
    for (const hop of [...hops].reverse()) amounts.unshift(backward(hop, amounts[0]!));
  }
  return Promise.all(
    hops.map(async (hop, i): Promise<PlannedHop> => {
      const amountIn = amounts[i]!;
      const amountOut = amounts[i + 1]!;
      if (hop.kind === 'op_withdraw')
        return { hop, amountIn, amountOut, ...(await withdrawalSeconds(facts, hop.bridgeId)) };
      if (hop.kind === 'oft') {
        const additionalFee = await facts.omnichainFee(hop.from, hop.source.oft, hop.destination.eid);
        return { hop, amountIn, amountOut, seconds: HOP_SECONDS.oft, additionalFee };
      }
      return { hop, amountIn, amountOut, seconds: HOP_SECONDS[hop.kind] };
    }),
  );
}

/**
 * A chain id the registry does not list: unknown, or retired (only its profile is left, and the
 * answer says so).
 */
export function unsupportedChain(registry: RouterRegistry, id: string): UnknownAssetError {
  const profile = registry.profile(id);
  return new UnknownAssetError(
    profile
      ? `chain ${id} (${profile.prettyName}) is not supported: the registry keeps only its profile (status ${profile.status || 'unset'}), not its chain.json`
      : `chain ${id} is not supported`,
  );
}

/**
 * The place of a listed asset; a denom the registry does not list is unknown, and a listed `ibc/…`
 * voucher without a trace whose path hashes to it cannot be placed (the answer says why).
 */
export function listedPlace(graph: HopGraph, chainId: string, denom: string): Place {
  const asset = graph.registry.asset(chainId, denom);
  if (!asset) throw new UnknownAssetError(`unknown denom ${denom} on chain ${chainId}`);
  const place = graph.place(chainId, asset.denom);
  if (!place)
    throw new NoRouteError(
      `${asset.denom} (${asset.symbol}) on ${chainId} has no route: the registry lists it without an ibc trace whose chain.path hashes to it, so where it comes from is unknown`,
    );
  return place;
}

/**
 * The route of a query. Ranking, in order: fewest seconds (the sum of the hops' estimates), then the
 * smallest fee charged in addition, then fewest hops, then the path's signature (chain ids, denoms and
 * channels), so equal inputs give byte-equal routes. `isOpWithdraw` keeps only routes through an OPinit
 * withdrawal.
 */
export async function planRoute(graph: HopGraph, facts: ChainFacts, query: RouteQuery): Promise<Plan> {
  const { registry } = graph;
  for (const id of [query.sourceChainId, query.destChainId]) {
    if (!registry.chain(id)) throw unsupportedChain(registry, id);
  }
  const source = listedPlace(graph, query.sourceChainId, query.sourceDenom);
  const dest = listedPlace(graph, query.destChainId, query.destDenom);
  if (source.chainId === dest.chainId && source.denom === dest.denom)
    throw new RouteRequestError('source and destination are the same asset');
  if (graph.origin(source) !== graph.origin(dest)) {
    throw new SwapRequiredError(
      unfollowedReason(graph, source, dest) ??
        `${query.sourceDenom} on ${query.sourceChainId} and ${query.destDenom} on ${query.destChainId} are different assets: only a swap joins them, and routes do not swap`,
      'Pick the same token on the destination chain.',
    );
  }
  const found = findPaths(graph, source, dest);
  if (found.length === 0)
    throw new NoRouteError(
      `no route from ${query.sourceDenom} on ${query.sourceChainId} to ${query.destDenom} on ${query.destChainId}: ${noRouteReason(graph, source, dest)}`,
    );
  let paths = found;
  if (query.isOpWithdraw) paths = paths.filter((p) => p.some((h) => h.kind === 'op_withdraw'));
  const { bridges } = query;
  if (bridges) paths = paths.filter((p) => p.every((h) => bridges.includes(BRIDGE_OF[h.kind])));
  if (paths.length === 0) {
    throw new NoRouteError(
      `no route from ${query.sourceDenom} on ${query.sourceChainId} to ${query.destDenom} on ${query.destChainId}${query.isOpWithdraw ? ' through an OPinit withdrawal' : ` over ${bridges!.join(', ')}`}`,
      query.isOpWithdraw
        ? 'Only rollups with an OPinit bridge withdraw to the L1, and only their bridged denoms.'
        : undefined,
    );
  }
  const priced = await Promise.all(paths.map((hops) => pricePath(facts, hops, query)));
  const ranked = priced
    .map((hops) => ({
      hops,
      seconds: hops.reduce((s, h) => s + h.seconds, 0),
      fee: hops.reduce((s, h) => s + (h.additionalFee ?? 0n), 0n),
      signature: signature(hops.map((h) => h.hop)),
    }))
    .sort(
      (a, b) =>
        a.seconds - b.seconds ||
        (a.fee < b.fee ? -1 : a.fee > b.fee ? 1 : 0) ||
        a.hops.length - b.hops.length ||
        (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0),
    );
  const best = ranked[0]!;
  const amountIn = best.hops[0]!.amountIn;
  const amountOut = best.hops.at(-1)!.amountOut;
  if (amountIn <= 0n || amountOut <= 0n)
    throw new RouteRequestError(
      `amount too small: ${amountIn} in would deliver ${amountOut}`,
      'Send a larger amount.',
    );
  return { source, dest, hops: best.hops, amountIn, amountOut, seconds: best.seconds };
}
