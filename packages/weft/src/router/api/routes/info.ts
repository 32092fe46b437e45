import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { createEndpoints, type Endpoints, parseJson } from '../../../chain/endpoints.js';
import { createJsonRpcClient, type JsonRpcClient } from '../../../chain/json-rpc-client.js';
import { createRestClient, type RestClient } from '../../../chain/rest-client.js';
import { mapConcurrently, withTimeout } from '../../../common/async.js';
import { BaseError, errorMessage, UpstreamError } from '../../../common/errors.js';
import { chainAddress } from '../../msgs/addresses.js';
import type { RouterChain } from '../../registry/types.js';
import type { RouterContext } from '../context.js';
import {
  AssetsQuery,
  AssetsResponse,
  BalancesRequest,
  BalancesResponse,
  ChainsQuery,
  ChainsResponse,
  errorResponses,
} from '../schemas.js';
import { assetJson, boolParam, chainJson, listParam } from '../views.js';

/** `12345` with 4 decimals → `1.2345`. */
function formatAmount(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const text = amount.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, -decimals);
  const fraction = text.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Node clients of each chain, made on first use and kept. */
function nodeClients(ctx: RouterContext) {
  const rest = new Map<string, RestClient>();
  const evm = new Map<string, { rpc: JsonRpcClient; raw: Endpoints }>();
  return {
    rest(chain: RouterChain) {
      const known = rest.get(chain.chainId);
      if (known) return known;
      const made = createRestClient([chain.rest!], { timeoutMs: ctx.nodeTimeoutMs });
      rest.set(chain.chainId, made);
      return made;
    },
    evm(chain: RouterChain) {
      let client = evm.get(chain.chainId);
      if (!client) {
        const options = { timeoutMs: ctx.nodeTimeoutMs };
        client = {
          rpc: createJsonRpcClient([chain.jsonRpc!], options),
          raw: createEndpoints([chain.jsonRpc!], options),
        };
        evm.set(chain.chainId, client);
      }
      return client;
    },
    async close() {
      await Promise.all([...rest.values()].map((c) => c.endpoints.close()));
      await Promise.all([...evm.values()].flatMap((c) => [c.rpc.endpoints.close(), c.raw.close()]));
    },
  };
}

/** Balances of one account on one chain: bank balances over REST, or native and ERC20 over JSON-RPC. */
async function chainBalances(
  ctx: RouterContext,
  clients: ReturnType<typeof nodeClients>,
  chain: RouterChain,
  address: string,
  denoms: string[] | undefined,
): Promise<Map<string, bigint>> {
  const account = chainAddress(chain, address);
  const out = new Map<string, bigint>();
  if (chain.rest) {
    const client = clients.rest(chain);
    const height = await client.latestHeight();
    for (const coin of await client.balances(account.bech32!, height))
      out.set(coin.denom, BigInt(coin.amount));
    return out;
  }
  if (!chain.jsonRpc) throw new UpstreamError(`chain ${chain.chainId} has no node endpoint`);
  const { rpc, raw } = clients.evm(chain);
  const height = await rpc.blockNumber();
  const native = chain.feeAssets[0]?.denom;
  const wanted = denoms ?? ctx.registry.assets.filter((a) => a.chainId === chain.chainId).map((a) => a.denom);
  for (const denom of wanted) {
    const asset = ctx.registry.asset(chain.chainId, denom);
    if (denom === native) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getBalance',
        params: [account.hex, `0x${height.toString(16)}`],
      });
      const json = await raw.request({ method: 'POST', path: '', body }, parseJson);
      out.set(denom, BigInt(json.result ?? '0x0'));
    } else if (asset?.tokenContract) {
      const [balance] = await rpc.balancesOf(
        asset.tokenContract.toLowerCase(),
        [account.hex!.toLowerCase()],
        height,
      );
      out.set(denom, balance ?? 0n);
    }
  }
  return out;
}

export function registerInfoRoutes(app: FastifyInstance, ctx: RouterContext): void {
  const clients = nodeClients(ctx);
  app.addHook('onClose', async () => clients.close());

  app.get(
    '/v2/info/chains',
    {
      schema: {
        tags: ['Info'],
        summary: 'The chains of the registry',
        querystring: ChainsQuery,
        response: { 200: ChainsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const query = request.query as Static<typeof ChainsQuery>;
      const ids = listParam(query.chain_ids);
      const includeEvm = boolParam(query.include_evm) !== false;
      const chains = ctx.registry.chains
        .filter((c) => !ids || ids.includes(c.chainId))
        .filter((c) => includeEvm || c.kind !== 'evm')
        // The L1 first, as wallets list it.
        .sort((a, b) => Number(b.isL1) - Number(a.isL1) || a.chainId.localeCompare(b.chainId));
      return { chains: chains.map((c) => chainJson(c, ctx.registry.asset)) };
    },
  );

  app.get(
    '/v2/fungible/assets',
    {
      schema: {
        tags: ['Fungible'],
        summary: 'The assets of each chain',
        querystring: AssetsQuery,
        response: { 200: AssetsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const query = request.query as Static<typeof AssetsQuery>;
      const ids = listParam(query.chain_ids);
      const includeEvm = boolParam(query.include_evm_assets) !== false;
      const nativeOnly = boolParam(query.native_only) === true;
      const map: Record<string, { assets: unknown[] }> = {};
      for (const chain of ctx.registry.chains) {
        if (ids && !ids.includes(chain.chainId)) continue;
        const assets = ctx.registry.assets
          .filter((a) => a.chainId === chain.chainId)
          .filter((a) => includeEvm || !a.tokenContract)
          .map((a) => assetJson(ctx.graph, a))
          .filter((a) => !nativeOnly || (a.origin_chain_id === a.chain_id && a.origin_denom === a.denom));
        map[chain.chainId] = { assets };
      }
      return { chain_to_assets_map: map };
    },
  );

  app.post(
    '/v2/info/balances',
    {
      schema: {
        tags: ['Info'],
        summary: "An account's balances on each chain, read from the chains' nodes",
        description:
          "Empty or absent `denoms`: every balance the node lists (EVM chains: the registry's assets). Chains are " +
          'asked concurrently, each within the node timeout; a chain that is unknown or cannot answer gets an ' +
          "`error` on each of its denoms (those asked, else the registry's) while the others answer.",
        body: BalancesRequest,
        response: { 200: BalancesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof BalancesRequest>;
      const entries = await mapConcurrently(
        Object.entries(body.chains),
        BALANCE_CONCURRENCY,
        ([id, wanted]) => chainBalanceEntries(ctx, clients, id, wanted),
      );
      return { chains: Object.fromEntries(entries) };
    },
  );
}

/** Chains read at once by one balances request. */
const BALANCE_CONCURRENCY = 8;

type DenomEntries = Record<string, Record<string, unknown>>;

/** One chain's entry of a balances answer: its balances, or the reason it has none on each denom. */
async function chainBalanceEntries(
  ctx: RouterContext,
  clients: ReturnType<typeof nodeClients>,
  id: string,
  wanted: { address: string; denoms?: string[] | undefined },
): Promise<[string, { denoms: DenomEntries }]> {
  const denoms = wanted.denoms?.length ? wanted.denoms : undefined;
  const chain = ctx.registry.chainByAnyId(id);
  const failed = (code: number, message: string): [string, { denoms: DenomEntries }] => {
    const listed =
      denoms ??
      (chain ? ctx.registry.assets.filter((a) => a.chainId === chain.chainId) : []).map((a) => a.denom);
    const error = { code, message, details: [] };
    return [
      id,
      { denoms: Object.fromEntries(listed.map((d) => [d, { amount: '0', formatted_amount: '0', error }])) },
    ];
  };
  if (!chain) return failed(5, `chain ${id} is not supported`);
  let held: Map<string, bigint>;
  try {
    held = await withTimeout(
      chainBalances(ctx, clients, chain, wanted.address, denoms),
      ctx.nodeTimeoutMs,
      `${chain.chainId}'s node did not answer within ${ctx.nodeTimeoutMs} ms`,
    );
  } catch (err) {
    if (err instanceof BaseError && err.status === 400) return failed(3, err.message);
    return failed(14, `${chain.chainId}: ${errorMessage(err)}`);
  }
  const entries: DenomEntries = {};
  for (const denom of denoms ?? [...held.keys()].sort()) {
    const amount = held.get(denom) ?? 0n;
    const decimals = ctx.registry.asset(chain.chainId, denom)?.decimals;
    entries[denom] = {
      amount: String(amount),
      ...(decimals === undefined ? {} : { decimals }),
      formatted_amount: formatAmount(amount, decimals ?? 0),
      price: '',
      value_usd: '',
    };
  }
  return [id, { denoms: entries }];
}
