import type { AssetTrace, RouterAsset, RouterRegistry } from '../registry/types.js';

/**
 * An asset's history as the registry tells it (`traces`, from its origin on): each step with where it
 * lands. What routes can and cannot retrace is read from it, to say why two assets of one origin have no
 * route between them.
 */

/** Trace kinds that keep an asset the same asset: an IBC voucher, an OPinit-bridged coin, a 1:1 wrapper. */
const FOLLOWED_TRACES = new Set(['ibc', 'op', 'wrapped']);

/**
 * Where a listed asset starts by its own traces: the first step of their trailing run of followed kinds
 * (a `liquid-stake` or `bridge` step before it makes another asset); undefined without such a run.
 */
export function traceStart(asset: RouterAsset): AssetTrace | undefined {
  let i = asset.traces.length;
  while (i > 0 && FOLLOWED_TRACES.has(asset.traces[i - 1]!.kind)) i--;
  return asset.traces[i];
}

/** The step before an asset's trailing run of followed kinds: one routes do not follow (`liquid-stake`, …). */
export function unfollowedStep(asset: RouterAsset): AssetTrace | undefined {
  const start = traceStart(asset);
  const i = start ? asset.traces.indexOf(start) : asset.traces.length;
  return i > 0 ? asset.traces[i - 1] : undefined;
}

/** One step of a lineage: the trace, and the chain (id or name) and denom it lands on. */
export interface LineageStep {
  trace: AssetTrace;
  from: string;
  to: string;
  toDenom: string;
}

const chainOf = (trace: AssetTrace) => trace.fromChainId ?? trace.fromChainName ?? '?';

/** An asset's steps from its origin, oldest first. */
export function lineage(asset: RouterAsset): LineageStep[] {
  return asset.traces.map((trace, i) => {
    const next = asset.traces[i + 1];
    return {
      trace,
      from: chainOf(trace),
      to: next ? chainOf(next) : asset.chainId,
      toDenom: next ? next.fromDenom : asset.denom,
    };
  });
}

const sameStep = (a: LineageStep, b: LineageStep) =>
  a.trace.kind === b.trace.kind &&
  a.from === b.from &&
  a.to === b.to &&
  a.trace.fromDenom === b.trace.fromDenom &&
  a.toDenom === b.toDenom;

/** The steps of `a` after the history it shares with `b`: what a route from one to the other retraces. */
export function ownSteps(a: LineageStep[], b: LineageStep[]): LineageStep[] {
  let shared = 0;
  while (shared < a.length && shared < b.length && sameStep(a[shared]!, b[shared]!)) shared++;
  return a.slice(shared);
}

/** A chain named in a reason: its id, with its profile's name and whether the registry retired it. */
function chainName(registry: RouterRegistry, chainId: string): string {
  const profile = registry.profile(chainId);
  if (!profile) return chainId;
  const retired = profile.status === 'hidden' && !registry.chain(chainId);
  return `${chainId} (${profile.prettyName}${retired ? ', retired: the registry keeps only its profile' : ''})`;
}

/**
 * Why routes cannot retrace a step of `subject`'s lineage (`<denom> on <chain>`), or undefined when they
 * can: a chain outside the registry on either end, a wrapping (routes wrap only in a deposit's hook, which
 * is found as a route when there is one), a trace kind routes do not follow.
 */
export function stepBlocker(
  registry: RouterRegistry,
  step: LineageStep,
  subject: string,
  /** `out`: the step is retraced away from the asset (a source's history); `in`: towards it. */
  direction: 'out' | 'in',
): string | undefined {
  const { trace } = step;
  const outside = [step.from, step.to].find((id) => !registry.chain(id));
  if (outside)
    return `${subject} came through ${chainName(registry, outside)}, which the registry does not list: routes only join the registry's chains`;
  const holds =
    subject === `${step.toDenom} on ${step.to}`
      ? subject
      : `${subject} is ${step.toDenom} of ${step.to}, which`;
  const by = `${trace.contract ?? 'a contract'}${trace.provider ? `, ${trace.provider}` : ''}`;
  // Out of a wrapper, a route unwraps in its source tx (graph/hops.ts); into one, only a deposit's hook wraps.
  if (trace.kind === 'wrapped' && direction === 'in')
    return `${holds} wraps ${trace.fromDenom} (by ${by}): routes convert into a wrapped token only in the hook of an OPinit deposit from the L1`;
  if (!FOLLOWED_TRACES.has(trace.kind))
    return `${holds} is a ${trace.kind} form of ${trace.fromDenom} on ${step.from}${trace.provider ? ` (${trace.provider})` : ''}: routes follow only IBC, OPinit and wrapped tokens`;
  return undefined;
}
