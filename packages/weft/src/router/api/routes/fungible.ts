import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { RouteRequestError } from '../../errors.js';
import { hopsOfOperations } from '../../graph/operations.js';
import { listedPlace, planRoute, pricePath, type RouteQuery, unsupportedChain } from '../../graph/plan.js';
import { type ChainAddress, chainAddress } from '../../msgs/addresses.js';
import { buildMsgs, type MsgsOptions } from '../../msgs/build.js';
import { opHookMsgs, signerIsRecipientReason } from '../../msgs/op-hook.js';
import type { RouterContext } from '../context.js';
import { estimatedFees, hookedDeposit, routeChainIds, routeJson } from '../route-response.js';
import {
  errorResponses,
  MsgsDirectRequest,
  MsgsDirectResponse,
  MsgsRequest,
  MsgsResponse,
  OpHookRequest,
  OpHookResponse,
  RouteRequest,
  RouteResponse,
  tooManyResponse,
} from '../schemas.js';
import { timeoutSecondsOf } from '../timeout.js';

const DEFAULT_SLIPPAGE = 1;

function chainIdOf(ctx: RouterContext, id: string): string {
  const chain = ctx.registry.chainByAnyId(id);
  if (!chain) throw unsupportedChain(ctx.registry, id);
  return chain.chainId;
}

function routeQuery(ctx: RouterContext, body: Static<typeof RouteRequest>): RouteQuery {
  const hasIn = body.amount_in !== undefined;
  if (hasIn === (body.amount_out !== undefined))
    throw new RouteRequestError('exactly one of amount_in and amount_out must be given');
  return {
    sourceChainId: chainIdOf(ctx, body.source_asset_chain_id),
    sourceDenom: body.source_asset_denom,
    destChainId: chainIdOf(ctx, body.dest_asset_chain_id),
    destDenom: body.dest_asset_denom,
    amountIn: hasIn ? BigInt(body.amount_in!) : undefined,
    amountOut: hasIn ? undefined : BigInt(body.amount_out!),
    isOpWithdraw: body.is_op_withdraw === true,
    bridges: body.bridges,
  };
}

function slippageOf(raw: string | number | undefined): number {
  const value = raw === undefined ? DEFAULT_SLIPPAGE : Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 100)
    throw new RouteRequestError('slippage_tolerance_percent must be a percent from 0 to 100');
  return value;
}

/** Slippage, IBC timeout and op hook of a `/msgs` or `/msgs_direct` request. */
function msgsOptions(
  ctx: RouterContext,
  body: {
    slippage_tolerance_percent?: string | number;
    timeout_seconds?: string | number;
    signed_op_hook?: unknown;
  },
): MsgsOptions {
  return {
    slippagePercent: slippageOf(body.slippage_tolerance_percent),
    timeoutSeconds: timeoutSecondsOf(body.timeout_seconds, 'timeout_seconds', ctx.ibcTimeoutSeconds),
    signedOpHook: body.signed_op_hook,
    nowMs: Date.now(),
  };
}

/** Each chain's address, checked against the chain's format. */
function addressBook(
  ctx: RouterContext,
  chainIds: string[],
  addressOf: (chainId: string, i: number) => unknown,
) {
  const book = new Map<string, ChainAddress>();
  chainIds.forEach((chainId, i) => {
    if (!book.has(chainId))
      book.set(chainId, chainAddress(ctx.registry.chain(chainId)!, addressOf(chainId, i)));
  });
  return (chainId: string) => book.get(chainId)!;
}

export function registerFungibleRoutes(app: FastifyInstance, ctx: RouterContext): void {
  app.post(
    '/v2/fungible/route',
    {
      schema: {
        tags: ['Fungible'],
        summary: 'The route of one asset to another chain (no swaps)',
        description:
          'Routes over IBC (multi-hop through packet forwarding), OPinit deposits and withdrawals and OFT transfers. ' +
          'The fastest route wins (then the smallest added fee, fewest hops, and a fixed order), unless ' +
          '`is_op_withdraw` asks for the OPinit withdrawal.',
        body: RouteRequest,
        response: { 200: RouteResponse, ...errorResponses },
      },
    },
    async (request) => {
      const query = routeQuery(ctx, request.body as Static<typeof RouteRequest>);
      return routeJson(ctx, query, await planRoute(ctx.graph, ctx.facts, query));
    },
  );

  app.post(
    '/v2/fungible/msgs',
    {
      schema: {
        tags: ['Fungible'],
        summary: 'The signable tx of a route',
        description:
          '`operations` as `/route` returned them; `address_list` gives one address per `required_chain_addresses` ' +
          'entry, in order (the last is the recipient). `cosmos_tx` msgs are amino JSON strings with proto type URLs; ' +
          '`evm_tx.data` is hex without 0x.',
        body: MsgsRequest,
        response: { 200: MsgsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof MsgsRequest>;
      const sourceChainId = chainIdOf(ctx, body.source_asset_chain_id);
      // A denom the registry does not list may still be sent (as `/route` never answers it, only a
      // client that made up its operations asks); a listed one that cannot be placed says why.
      const source =
        ctx.graph.place(sourceChainId, body.source_asset_denom) ??
        listedPlace(ctx.graph, sourceChainId, body.source_asset_denom);
      const hops = hopsOfOperations(ctx.graph, source, body.operations);
      const last = hops.at(-1)!;
      if (
        last.to !== chainIdOf(ctx, body.dest_asset_chain_id) ||
        ctx.graph.place(last.to, body.dest_asset_denom)?.denom !== last.denomOut
      )
        throw new RouteRequestError('operations do not end at dest_asset_denom on dest_asset_chain_id');
      const planned = await pricePath(ctx.facts, hops, {
        sourceChainId,
        sourceDenom: source.denom,
        destChainId: last.to,
        destDenom: last.denomOut,
        amountIn: BigInt(body.amount_in),
      });
      const chainIds = routeChainIds(planned);
      if (body.address_list.length !== chainIds.length)
        throw new RouteRequestError(
          `address_list needs ${chainIds.length} addresses, one per required chain (${chainIds.join(', ')})`,
        );
      const built = await buildMsgs(
        ctx.registry,
        ctx.facts,
        planned,
        addressBook(ctx, chainIds, (_, i) => body.address_list[i]),
        msgsOptions(ctx, body),
      );
      return { ...built, estimated_fees: estimatedFees(ctx, planned) };
    },
  );

  app.post(
    '/v2/fungible/msgs_direct',
    {
      schema: {
        tags: ['Fungible'],
        summary: 'Route and msgs in one call',
        description:
          'A `/route` request plus `chain_ids_to_addresses` (an address for every chain of the route).',
        body: MsgsDirectRequest,
        response: { 200: MsgsDirectResponse, ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof MsgsDirectRequest>;
      const query = routeQuery(ctx, body);
      const plan = await planRoute(ctx.graph, ctx.facts, query);
      const chainIds = routeChainIds(plan.hops);
      const given = new Map(
        Object.entries(body.chain_ids_to_addresses).map(([id, address]) => [
          ctx.registry.chainByAnyId(id)?.chainId ?? id,
          address,
        ]),
      );
      const built = await buildMsgs(
        ctx.registry,
        ctx.facts,
        plan.hops,
        addressBook(ctx, chainIds, (chainId) => given.get(chainId)),
        msgsOptions(ctx, body),
      );
      return {
        msgs: built.msgs,
        txs: built.txs,
        min_amount_out: built.min_amount_out,
        route: routeJson(ctx, query, plan),
      };
    },
  );

  app.post(
    '/op-hook',
    {
      schema: {
        tags: ['Fungible'],
        summary: 'Initia: the msgs a deposit must run on arrival, to sign as the recipient',
        description:
          'Only routes with `required_op_hook` need one: `hook` lists the `/minievm.evm.v1.MsgCall`s (amino JSON) ' +
          'that convert the deposit on `chain_id`, to sign as `dest_address`; the signed tx goes to `/msgs` as ' +
          "`signed_op_hook` and into the deposit's `data`. A route that needs no hook is answered with a 400 that says so. " +
          '`dest_address` must be the account of `source_address` (the hook runs as the recipient and InterwovenKit ' +
          'signs it as the connected wallet). The signer must have an account on `chain_id`: with a funder ' +
          'configured the router creates a missing one (answering once its tx passed CheckTx; 429 beyond its ' +
          'cap a minute, 503 when the tx is refused), without one a missing account is a 400.',
        body: OpHookRequest,
        response: { 200: OpHookResponse, ...errorResponses, 429: tooManyResponse },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof OpHookRequest>;
      const query: RouteQuery = {
        sourceChainId: chainIdOf(ctx, body.source_asset_chain_id),
        sourceDenom: body.source_asset_denom,
        destChainId: chainIdOf(ctx, body.dest_asset_chain_id),
        destDenom: body.dest_asset_denom,
        amountIn: 1n,
      };
      const source = chainAddress(ctx.registry.chain(query.sourceChainId)!, body.source_address);
      const recipient = chainAddress(ctx.registry.chain(query.destChainId)!, body.dest_address);
      const plan = await planRoute(ctx.graph, ctx.facts, query);
      const hooked = hookedDeposit(plan.hops);
      if (hooked) {
        const { bech32, hex } = recipient;
        if (!bech32 || !hex)
          throw new RouteRequestError(
            `dest_address must be a 20-byte account of ${hooked.to}: it signs the hook's EVM calls`,
          );
        if (!Buffer.from(source.bytes).equals(Buffer.from(recipient.bytes)))
          throw new RouteRequestError(
            `dest_address ${body.dest_address} is not the account of source_address ${body.source_address}: ${signerIsRecipientReason(hooked.to)}`,
          );
        const hook = await opHookMsgs(ctx.facts, hooked.to, hooked.hook, recipient);
        // InterwovenKit waits for the signer's account right after this answer, and fails after 2 minutes.
        await ctx.opHookAccounts.ensure(ctx.registry.chain(hooked.to)!, { ...recipient, bech32 });
        return { chain_id: hooked.to, hook };
      }
      const deposit = plan.hops.find((h) => h.hop.kind === 'op_deposit');
      throw new RouteRequestError(
        deposit
          ? `the OPinit deposit into ${deposit.hop.to} needs no hook: ${deposit.hop.denomOut} arrives as it is`
          : 'the route has no OPinit deposit, so it takes no hook',
      );
    },
  );
}
