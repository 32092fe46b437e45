import type { FastifyInstance } from 'fastify';
import { fromBech32 } from 'weft/chain/address.js';
import type { AccountView } from '../node.js';
import type { Coin } from '../types.js';
import { invalidArgument, notFound, notImplemented, unknownError } from './gateway-errors.js';
import { paginate, parsePageRequest } from './pagination.js';
import { type RestContext, sendJson } from './rest-context.js';

/** State queries of the auth, bank and opchild modules, read at the `x-cosmos-block-height` height. */

type Query = Record<string, unknown>;

const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

function baseAccount(account: AccountView): Record<string, unknown> {
  return {
    address: account.address,
    pub_key: account.pubKey,
    account_number: account.accountNumber.toString(),
    sequence: account.sequence.toString(),
  };
}

function accountAny(account: AccountView): Record<string, unknown> {
  if (account.module) {
    return {
      '@type': '/cosmos.auth.v1beta1.ModuleAccount',
      base_account: baseAccount(account),
      name: account.module.name,
      permissions: account.module.permissions,
    };
  }
  return { '@type': '/cosmos.auth.v1beta1.BaseAccount', ...baseAccount(account) };
}

const addressKey = (account: AccountView) => fromBech32(account.address).bytes;
const denomKey = (coin: Coin) => Buffer.from(coin.denom);
const byDenom = (a: Coin, b: Coin) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0);

function checkDenom(denom: string): void {
  if (!DENOM.test(denom)) throw invalidArgument(`invalid denom: ${denom}`);
}

export function registerStateRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { node } = ctx;
  const bankAddress = (input: string) =>
    ctx.accountAddress(input, (message) => invalidArgument(`invalid address: ${message}`));

  app.get('/cosmos/auth/v1beta1/accounts', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const page = paginate(node.accounts(height), addressKey, parsePageRequest(request.query as Query));
    return sendJson(
      reply,
      JSON.stringify({ accounts: page.items.map(accountAny), pagination: page.pagination }),
    );
  });

  app.get('/cosmos/auth/v1beta1/accounts/:address', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const { address } = request.params as { address: string };
    const account = node.account(ctx.accountAddress(address), height);
    if (!account) throw notFound(`account ${address} not found`);
    return sendJson(reply, JSON.stringify({ account: accountAny(account) }));
  });

  app.get('/cosmos/auth/v1beta1/account_info/:address', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const { address } = request.params as { address: string };
    const account = node.account(ctx.accountAddress(address), height);
    if (!account) throw notFound(`account ${address} not found`);
    return sendJson(reply, JSON.stringify({ info: baseAccount(account) }));
  });

  app.get('/cosmos/auth/v1beta1/module_accounts', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const modules = node
      .accounts(height)
      .filter((account) => account.module)
      .sort((a, b) => (a.module!.name < b.module!.name ? -1 : 1));
    return sendJson(reply, JSON.stringify({ accounts: modules.map(accountAny) }));
  });

  const balancesRoute = async (request: { params: unknown; query: unknown }, height: number) => {
    const address = bankAddress((request.params as { address: string }).address);
    const coins = [...(await node.balances(address, height))].filter((c) => c.amount !== '0').sort(byDenom);
    const page = paginate(coins, denomKey, parsePageRequest(request.query as Query));
    return JSON.stringify({ balances: page.items, pagination: page.pagination });
  };

  app.get('/cosmos/bank/v1beta1/balances/:address', async (request, reply) =>
    sendJson(reply, await balancesRoute(request, ctx.stateHeight(request, reply))),
  );

  app.get('/cosmos/bank/v1beta1/spendable_balances/:address', async (request, reply) =>
    sendJson(reply, await balancesRoute(request, ctx.stateHeight(request, reply))),
  );

  app.get('/cosmos/bank/v1beta1/balances/:address/by_denom', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const address = bankAddress((request.params as { address: string }).address);
    const denom = String((request.query as Query).denom ?? '');
    checkDenom(denom);
    const coin = (await node.balances(address, height)).find((c) => c.denom === denom);
    return sendJson(reply, JSON.stringify({ balance: { denom, amount: coin?.amount ?? '0' } }));
  });

  const supplyAt = async (height: number): Promise<Coin[]> => {
    const totals = new Map<string, bigint>();
    for (const account of node.accounts(height)) {
      for (const coin of await node.balances(account.address, height)) {
        totals.set(coin.denom, (totals.get(coin.denom) ?? 0n) + BigInt(coin.amount));
      }
    }
    return [...totals].map(([denom, amount]) => ({ denom, amount: amount.toString() })).sort(byDenom);
  };

  app.get('/cosmos/bank/v1beta1/supply', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const page = paginate(await supplyAt(height), denomKey, parsePageRequest(request.query as Query));
    return sendJson(reply, JSON.stringify({ supply: page.items, pagination: page.pagination }));
  });

  app.get('/cosmos/bank/v1beta1/supply/by_denom', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const denom = String((request.query as Query).denom ?? '');
    checkDenom(denom);
    const coin = (await supplyAt(height)).find((c) => c.denom === denom);
    return sendJson(reply, JSON.stringify({ amount: { denom, amount: coin?.amount ?? '0' } }));
  });

  const validatorJson = () => {
    const validator = node.validator();
    return {
      moniker: validator.moniker,
      operator_address: validator.operatorAddress,
      consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: validator.pubKeyBase64 },
      cons_power: '1',
    };
  };

  // The opchild module's validators: a rollup's. The L1 and other Cosmos chains have no such module.
  const hasOpchild = (node.info.role ?? 'rollup') === 'rollup';

  app.get('/opinit/opchild/v1/validators', async (request, reply) => {
    ctx.stateHeight(request, reply);
    if (!hasOpchild) throw notImplemented();
    return sendJson(
      reply,
      JSON.stringify({ validators: [validatorJson()], pagination: { next_key: null, total: '1' } }),
    );
  });

  app.get('/opinit/opchild/v1/validator/:address', async (request, reply) => {
    ctx.stateHeight(request, reply);
    if (!hasOpchild) throw notImplemented();
    const { address } = request.params as { address: string };
    try {
      fromBech32(address);
    } catch (err) {
      throw unknownError(`decoding bech32 failed: ${(err as Error).message}`);
    }
    const validator = validatorJson();
    if (address !== validator.operator_address) throw notFound(`validator ${address} not found`);
    return sendJson(reply, JSON.stringify({ validator }));
  });
}
