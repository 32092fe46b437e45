import { operationJson } from '../graph/operations.js';
import type { Plan, PlannedHop, RouteQuery } from '../graph/plan.js';
import type { RouterContext } from './context.js';
import { assetJson } from './views.js';

/** `estimated_fees`: the OFT messaging fee, paid in the source chain's native token on top of the amount. */
export function estimatedFees(ctx: RouterContext, hops: PlannedHop[]) {
  return hops.flatMap((planned, i) => {
    const { hop } = planned;
    if (hop.kind !== 'oft' || planned.additionalFee === undefined) return [];
    const chain = ctx.registry.chain(hop.from)!;
    const denom = chain.feeAssets[0]?.denom ?? '';
    const asset = ctx.registry.asset(hop.from, denom);
    return [
      {
        bridge_id: 'LAYER_ZERO',
        amount: String(planned.additionalFee),
        usd_amount: '',
        origin_asset: asset ? assetJson(ctx.graph, asset) : { denom, chain_id: hop.from },
        chain_id: hop.from,
        tx_index: 0,
        operation_index: i,
        fee_behavior: 'FEE_BEHAVIOR_ADDITIONAL',
      },
    ];
  });
}

/** The chains a route touches, in order of use; each needs an address (the last is the recipient's). */
export const routeChainIds = (hops: PlannedHop[]) => [hops[0]!.hop.from, ...hops.map((h) => h.hop.to)];

/** The deposit of a route whose hook converts what arrives (the client signs it: `required_op_hook`). */
export function hookedDeposit(hops: PlannedHop[]) {
  for (const { hop } of hops) if (hop.kind === 'op_deposit' && hop.hook) return { ...hop, hook: hop.hook };
  return undefined;
}

/** The `/v2/fungible/route` answer: field order fixed and no clock read, so equal inputs give equal bytes. */
export function routeJson(ctx: RouterContext, query: RouteQuery, plan: Plan) {
  const chainIds = routeChainIds(plan.hops);
  const withdrawal = plan.hops.find((h) => h.hop.kind === 'op_withdraw');
  const hooked = hookedDeposit(plan.hops);
  const extraInfos: string[] = [];
  if (withdrawal)
    extraInfos.push(
      `The OPinit withdrawal is claimable on ${withdrawal.hop.to} after the bridge's output interval and finalization period (about ${withdrawal.seconds} s); claim it there with the executor's proof.`,
    );
  if (hooked) {
    const symbol = ctx.registry.asset(hooked.to, hooked.denomOut)?.symbol ?? hooked.denomOut;
    const { hook } = hooked;
    extraInfos.push(
      hook.kind === 'wrap'
        ? `On arrival on ${hooked.to}, the deposit's hook (signed by the recipient) wraps ${hook.underlying} 1:1 into ${symbol}.`
        : `On arrival on ${hooked.to}, the deposit's hook (signed by the recipient) converts ${hook.underlying} into ${symbol} with the Decimal Wrapper ${hook.wrapper} (${hook.remoteDecimals} to ${hook.localDecimals} decimals).`,
    );
  }
  const extraWarnings = plan.hops.flatMap(({ hop, assumedSeconds }) =>
    assumedSeconds && hop.kind === 'op_withdraw'
      ? [
          `${hop.to} did not say how long OPinit bridge ${hop.bridgeId}'s withdrawals take: the estimate assumes a 168 h finalization period; the bridge's own may be shorter.`,
        ]
      : [],
  );
  return {
    amount_in: String(plan.amountIn),
    amount_out: String(plan.amountOut),
    source_asset_denom: query.sourceDenom,
    source_asset_chain_id: query.sourceChainId,
    dest_asset_denom: query.destDenom,
    dest_asset_chain_id: query.destChainId,
    operations: plan.hops.map((h) => operationJson(ctx.graph, h)),
    chain_ids: chainIds,
    required_chain_addresses: chainIds,
    does_swap: false,
    estimated_amount_out: String(plan.amountOut),
    swap_venues: [],
    txs_required: 1,
    usd_amount_in: '',
    usd_amount_out: '',
    estimated_fees: estimatedFees(ctx, plan.hops),
    estimated_route_duration_seconds: plan.seconds,
    required_op_hook: hooked !== undefined,
    extra_infos: extraInfos,
    extra_warnings: extraWarnings,
  };
}
