import { type Hop, type HopGraph, MAX_HOPS, type Place } from './hops.js';
import { lineage, ownSteps, stepBlocker, unfollowedStep } from './lineage.js';

/**
 * Why two places of one asset have no route, in words a wallet can show: the way takes more than one
 * transaction, or a step of either asset's history cannot be retraced (a chain outside the registry, a
 * wrapping, a trace kind routes do not follow).
 */

/** Hops a way of several transactions may take: enough for a withdrawal, an IBC hop and a deposit. */
const MAX_WAY_HOPS = 4;

/** The transactions of a way: a new one starts at each hop that cannot ride the previous one's packet. */
function transactions(hops: Hop[]): Hop[][] {
  const txs: Hop[][] = [];
  for (const hop of hops) {
    const tx = txs.at(-1);
    if (tx && tx[0]!.kind === 'ibc' && hop.kind === 'ibc' && tx.length < MAX_HOPS) tx.push(hop);
    else txs.push([hop]);
  }
  return txs;
}

const signature = (hops: Hop[]) => hops.map((h) => `${h.kind}:${h.to}:${h.denomOut}`).join('|');

/** The way from `source` to `dest` in the fewest transactions (then hops, then a fixed order), if any. */
export function fewestTransactions(graph: HopGraph, source: Place, dest: Place): Hop[][] | undefined {
  let best: { txs: Hop[][]; hops: Hop[] } | undefined;
  const better = (hops: Hop[], txs: Hop[][]) => {
    if (!best) return true;
    if (txs.length !== best.txs.length) return txs.length < best.txs.length;
    if (hops.length !== best.hops.length) return hops.length < best.hops.length;
    return signature(hops) < signature(best.hops);
  };
  const walk = (at: Place, path: Hop[], visited: Set<string>) => {
    if (path.length > 0 && at.chainId === dest.chainId && at.denom === dest.denom) {
      const txs = transactions(path);
      if (better(path, txs)) best = { txs, hops: path };
      return;
    }
    if (path.length >= MAX_WAY_HOPS) return;
    for (const { hop, to } of graph.hopsFrom(at)) {
      const key = `${to.chainId}\n${to.denom}`;
      if (visited.has(key)) continue;
      visited.add(key);
      walk(to, [...path, hop], visited);
      visited.delete(key);
    }
  };
  walk(source, [], new Set([`${source.chainId}\n${source.denom}`]));
  return best?.txs;
}

const HOP_WORDS: Record<Hop['kind'], string> = {
  ibc: 'an IBC transfer to',
  op_deposit: 'an OPinit deposit into',
  op_withdraw: 'an OPinit withdrawal to',
  oft: 'an OFT send to',
};

/** The reason of a `no route` answer between two places of one origin. */
export function noRouteReason(graph: HopGraph, source: Place, dest: Place): string {
  const txs = fewestTransactions(graph, source, dest);
  if (txs) {
    const steps = txs.map((tx) => tx.map((h) => `${HOP_WORDS[h.kind]} ${h.to}`).join(' forwarded as '));
    const first = txs[0]!.at(-1)!;
    return `it takes ${txs.length} transactions (${steps.join(', then ')}) and a route is one: route it to ${first.denomOut} on ${first.to} first`;
  }
  const { registry } = graph;
  const sourceAsset = registry.asset(source.chainId, source.denom);
  const destAsset = registry.asset(dest.chainId, dest.denom);
  const sourceSteps = sourceAsset ? lineage(sourceAsset) : [];
  const destSteps = destAsset ? lineage(destAsset) : [];
  for (const [place, own, direction] of [
    [source, ownSteps(sourceSteps, destSteps), 'out'],
    [dest, ownSteps(destSteps, sourceSteps), 'in'],
  ] as const) {
    // The step nearest the asset first: it is the one a route would have to retrace first.
    for (const step of [...own].reverse()) {
      const blocker = stepBlocker(registry, step, `${place.denom} on ${place.chainId}`, direction);
      if (blocker) return blocker;
    }
  }
  return 'the registry names no IBC channel, OPinit bridge or OFT link that joins them';
}

/**
 * Why two places of different origins are not one asset when the registry ties one to the other by a
 * trace kind routes do not follow (`X` is a `liquid-stake` form of `Y`), or undefined.
 */
export function unfollowedReason(graph: HopGraph, a: Place, b: Place): string | undefined {
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    const asset = graph.registry.asset(x.chainId, x.denom);
    const step = asset && unfollowedStep(asset);
    if (!step) continue;
    const chainId = step.fromChainId ?? step.fromChainName!;
    const from = graph.registry.chain(chainId) ? graph.place(chainId, step.fromDenom) : undefined;
    if ((from ? graph.origin(from) : `${chainId}\n${step.fromDenom}`) !== graph.origin(y)) continue;
    const provider = step.provider ? ` (${step.provider})` : '';
    return `${x.denom} on ${x.chainId} is a ${step.kind} form of ${step.fromDenom} on ${chainId}${provider}, not that token: routes follow only IBC, OPinit and wrapped tokens, and only a swap joins it to ${y.denom} on ${y.chainId}`;
  }
  return undefined;
}
