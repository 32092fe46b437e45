import { RouteRequestError } from '../errors.js';
import type { Hop, HopGraph, Place } from './hops.js';
import type { PlannedHop } from './plan.js';

/** The Skip `operations[]` entry of a hop (one wrapper key, then `tx_index`, `amount_in`, `amount_out`). */
export function operationJson(graph: HopGraph, planned: PlannedHop): Record<string, unknown> {
  const { hop } = planned;
  const common = { tx_index: 0, amount_in: String(planned.amountIn), amount_out: String(planned.amountOut) };
  switch (hop.kind) {
    case 'ibc':
      return {
        transfer: {
          port: 'transfer',
          channel: hop.channel,
          from_chain_id: hop.from,
          to_chain_id: hop.to,
          pfm_enabled: true,
          supports_memo: true,
          denom_in: hop.denomIn,
          denom_out: hop.denomOut,
          bridge_id: 'IBC',
          smart_relay: false,
          chain_id: hop.from,
          dest_denom: hop.denomOut,
        },
        ...common,
      };
    case 'op_deposit':
    case 'op_withdraw':
      return {
        op_init_transfer: {
          from_chain_id: hop.from,
          to_chain_id: hop.to,
          denom_in: hop.denomIn,
          denom_out: hop.denomOut,
          op_init_bridge_id: hop.bridgeId,
          bridge_id: 'OPINIT',
          smart_relay: false,
        },
        ...common,
      };
    case 'oft': {
      const feeDenom = graph.registry.chain(hop.from)?.feeAssets[0]?.denom ?? '';
      return {
        layer_zero_transfer: {
          from_chain_id: hop.from,
          to_chain_id: hop.to,
          denom_in: hop.denomIn,
          denom_out: hop.denomOut,
          source_oft_contract_address: hop.source.oft,
          destination_endpoint_id: hop.destination.eid,
          messaging_fee_asset: { denom: feeDenom, chain_id: hop.from },
          messaging_fee_amount: String(planned.additionalFee ?? 0n),
          messaging_fee_amount_usd: '',
          bridge_id: 'LAYER_ZERO',
        },
        ...common,
      };
    }
  }
}

const KIND_OF_KEY: Record<string, Hop['kind'][]> = {
  transfer: ['ibc'],
  op_init_transfer: ['op_deposit', 'op_withdraw'],
  layer_zero_transfer: ['oft'],
};

/**
 * The hops of `operations` as `/route` returned them (clients send them back verbatim): each must be
 * a hop of the graph from where the previous one ended, so a tampered list is refused.
 */
export function hopsOfOperations(graph: HopGraph, source: Place, operations: unknown[]): Hop[] {
  if (operations.length === 0) throw new RouteRequestError('operations must not be empty');
  const hops: Hop[] = [];
  let at = source;
  for (const [i, raw] of operations.entries()) {
    const op = raw as Record<string, any>;
    const key = Object.keys(KIND_OF_KEY).find((k) => op && typeof op[k] === 'object' && op[k] !== null);
    if (!key)
      throw new RouteRequestError(
        `operations[${i}]: unsupported operation (transfer, op_init_transfer or layer_zero_transfer)`,
      );
    const body = op[key];
    const match = graph
      .hopsFrom(at)
      .find(
        ({ hop, to }) =>
          KIND_OF_KEY[key]!.includes(hop.kind) &&
          to.chainId === body.to_chain_id &&
          to.denom === body.denom_out &&
          hop.from === body.from_chain_id &&
          hop.denomIn === body.denom_in &&
          (hop.kind !== 'ibc' || hop.channel === body.channel),
      );
    if (!match) throw new RouteRequestError(`operations[${i}]: not a hop from ${at.denom} on ${at.chainId}`);
    if (i > 0 && (match.hop.kind !== 'ibc' || hops[0]!.kind !== 'ibc'))
      throw new RouteRequestError(`operations[${i}]: only IBC hops follow an IBC hop in one transaction`);
    hops.push(match.hop);
    at = match.to;
  }
  return hops;
}
