import type { FastifyInstance } from 'fastify';
import { invalidArgument, unknownError } from './gateway-errors.js';
import { emptyPage } from './pagination.js';
import { type RestContext, sendJson } from './rest-context.js';

/**
 * The L1's delegator queries of initia's `mstaking` and `distribution` modules (a wallet's staking
 * positions and rewards). The devnet's L1 runs one sequencer-style validator paid the fees directly: no
 * stake is ever bonded (no delegate msg, no bonded pool), so every delegator has no delegation, no
 * unbonding and no reward. A rollup has neither module and answers 501.
 */

type Query = Record<string, unknown>;

const BOND_STATUSES = new Set(['BOND_STATUS_BONDED', 'BOND_STATUS_UNBONDED', 'BOND_STATUS_UNBONDING']);

export function registerStakingRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { node } = ctx;
  if (node.info.role !== 'l1') return;
  // `DelegatorDelegations`: the status filter is checked first, the address then (both InvalidArgument).
  app.get('/initia/mstaking/v1/delegations/:delegator_addr', async (request, reply) => {
    ctx.stateHeight(request, reply);
    const query = request.query as Query;
    const status = String(query.status ?? '');
    if (status !== '' && !BOND_STATUSES.has(status))
      throw invalidArgument(`invalid validator status ${status}`);
    ctx.bech32Address((request.params as { delegator_addr: string }).delegator_addr, invalidArgument);
    return sendJson(reply, JSON.stringify({ delegation_responses: [], pagination: emptyPage(query) }));
  });

  app.get('/initia/mstaking/v1/delegators/:delegator_addr/unbonding_delegations', async (request, reply) => {
    ctx.stateHeight(request, reply);
    ctx.bech32Address((request.params as { delegator_addr: string }).delegator_addr, invalidArgument);
    const pagination = emptyPage(request.query as Query);
    return sendJson(reply, JSON.stringify({ unbonding_responses: [], pagination }));
  });

  // `DelegationTotalRewards` returns the codec's error as it is: gRPC Unknown.
  app.get('/initia/distribution/v1/delegators/:delegator_address/rewards', async (request, reply) => {
    ctx.stateHeight(request, reply);
    ctx.bech32Address((request.params as { delegator_address: string }).delegator_address, unknownError);
    return sendJson(reply, JSON.stringify({ rewards: [], total: [] }));
  });
}
