import { NoRouteError, RouteRequestError, SwapRequiredError, UnknownAssetError } from '../errors.js';
import type { Hop, HopGraph, Place } from './hops.js';

/** At most this many hops: IBC hops after the first ride packet-forward memos. */
export const MAX_HOPS = 3;

/**
 * Estimated seconds per hop. An OPinit withdrawal waits for the bridge: an output covering it (the
 * output interval) and that output's finalization period, read from the L1 (`ChainFacts`).
 */
export const HOP_SECONDS = { ibc: 30, op_deposit: 15, oft: 60 } as const;

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

/** OFT amounts travel in shared decimals: local dust below them is not sent. */
function oftScale(hop: Extract<Hop, { kind: 'oft' }>) {
  return {
    down: 10n ** BigInt(hop.source.decimals - hop.source.sharedDecimals),
    up: 10n ** BigInt(hop.destination.decimals - hop.destination.sharedDecimals),
  };
}

function forward(hop: Hop, amount: bigint): bigint {
  if (hop.kind !== 'oft') return amount;
  const { down, up } = oftScale(hop);
  return (amount / down) * up;
}

function backward(hop: Hop, amount: bigint): bigint {
  if (hop.kind !== 'oft') return amount;
  const { down, up } = oftScale(hop);
  if (amount % up !== 0n)
    throw new RouteRequestError(`amount_out must be a multiple of ${up} (the OFT's shared decimals)`);
  return (amount / up) * down;
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
    hops.map(async (hop, i) => {
      let seconds: number =
        hop.kind === 'op_withdraw' ? await facts.withdrawalSeconds(hop.bridgeId) : HOP_SECONDS[hop.kind];
      let additionalFee: bigint | undefined;
      if (hop.kind === 'oft') {
        additionalFee = await facts.omnichainFee(hop.from, hop.source.oft, hop.destination.eid);
        seconds = HOP_SECONDS.oft;
      }
      return { hop, amountIn: amounts[i]!, amountOut: amounts[i + 1]!, seconds, additionalFee };
    }),
  );
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
    if (!registry.chain(id)) throw new UnknownAssetError(`chain ${id} is not supported`);
  }
  const source = graph.place(query.sourceChainId, query.sourceDenom);
  if (!source || !registry.asset(source.chainId, source.denom))
    throw new UnknownAssetError(`unknown denom ${query.sourceDenom} on chain ${query.sourceChainId}`);
  const dest = graph.place(query.destChainId, query.destDenom);
  if (!dest || !registry.asset(dest.chainId, dest.denom))
    throw new UnknownAssetError(`unknown denom ${query.destDenom} on chain ${query.destChainId}`);
  if (source.chainId === dest.chainId && source.denom === dest.denom)
    throw new RouteRequestError('source and destination are the same asset');
  if (graph.origin(source) !== graph.origin(dest)) {
    throw new SwapRequiredError(
      `${query.sourceDenom} on ${query.sourceChainId} and ${query.destDenom} on ${query.destChainId} are different assets: only a swap joins them, and routes do not swap`,
      'Pick the same token on the destination chain.',
    );
  }
  let paths = findPaths(graph, source, dest);
  if (query.isOpWithdraw) paths = paths.filter((p) => p.some((h) => h.kind === 'op_withdraw'));
  const { bridges } = query;
  if (bridges) paths = paths.filter((p) => p.every((h) => bridges.includes(BRIDGE_OF[h.kind])));
  if (paths.length === 0) {
    throw new NoRouteError(
      `no route from ${query.sourceDenom} on ${query.sourceChainId} to ${query.destDenom} on ${query.destChainId}${query.isOpWithdraw ? ' through an OPinit withdrawal' : ''}`,
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
