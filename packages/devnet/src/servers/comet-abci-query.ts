import { fromHex } from '@cosmjs/encoding';
import { BaseAccount, ModuleAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { QueryAllBalancesRequest, QueryAllBalancesResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { SimulateRequest, SimulateResponse } from 'cosmjs-types/cosmos/tx/v1beta1/service';
import { fromBech32 } from 'weft/chain/address.js';
import { encodeAny } from 'weft/chain/registry.js';
import type { AccountView, ChainNode } from '../node.js';
import { internalError } from './comet-errors.js';
import type { MethodParams } from './comet-params.js';
import { GatewayError } from './gateway-errors.js';
import { DEFAULT_LIMIT, paginate } from './pagination.js';

/**
 * CometBFT `abci_query` for the gRPC queries a wallet makes before it signs: `/cosmos.auth.v1beta1.Query/Account`
 * (cosmjs `getSequence`, which SigningStargateClient calls for the account number and sequence),
 * `/cosmos.tx.v1beta1.Service/Simulate` (cosmjs `simulate`, behind gas `"auto"`) and
 * `/cosmos.bank.v1beta1.Query/AllBalances` (cosmjs `getAllBalances`: InterwovenKit picks a Cosmos source
 * chain's fee asset with it). The answer is the ABCI `ResponseQuery` the SDK's BaseApp gives, errors included.
 */

interface QueryAnswer {
  code: number;
  log: string;
  value?: Uint8Array;
  codespace: string;
}

function responseJson(answer: QueryAnswer, height: number): string {
  return JSON.stringify({
    response: {
      code: answer.code,
      log: answer.log,
      info: '',
      index: '0',
      key: null,
      value: answer.value ? Buffer.from(answer.value).toString('base64') : null,
      proofOps: null,
      height: String(height),
      codespace: answer.codespace,
    },
  });
}

/** A gRPC status error as BaseApp turns it into an ABCI error (`gRPCErrorToSDKError`). */
const grpcError = (grpcCode: string, desc: string, sdkCode: number, sdkText: string): QueryAnswer => ({
  code: sdkCode,
  log: `rpc error: code = ${grpcCode} desc = ${desc}: ${sdkText}`,
  codespace: 'sdk',
});

function accountAny(account: AccountView): { typeUrl: string; value: Uint8Array } {
  const base = BaseAccount.fromPartial({
    address: account.address,
    pubKey: account.pubKey
      ? encodeAny(account.pubKey['@type'], { key: Buffer.from(account.pubKey.key, 'base64') })
      : undefined,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
  });
  if (account.module) {
    return {
      typeUrl: '/cosmos.auth.v1beta1.ModuleAccount',
      value: ModuleAccount.encode(
        ModuleAccount.fromPartial({
          baseAccount: base,
          name: account.module.name,
          permissions: account.module.permissions,
        }),
      ).finish(),
    };
  }
  return { typeUrl: '/cosmos.auth.v1beta1.BaseAccount', value: BaseAccount.encode(base).finish() };
}

async function queryAccount(node: ChainNode, data: Uint8Array, height: number): Promise<QueryAnswer> {
  let address: string;
  try {
    address = QueryAccountRequest.decode(data).address;
  } catch (err) {
    return grpcError('InvalidArgument', (err as Error).message, 18, 'invalid request');
  }
  if (address === '') return grpcError('InvalidArgument', 'Address cannot be empty', 18, 'invalid request');
  try {
    fromBech32(address);
  } catch (err) {
    return grpcError('InvalidArgument', (err as Error).message, 18, 'invalid request');
  }
  const account = node.account(address, height);
  if (!account) return grpcError('NotFound', `account ${address} not found`, 38, 'key not found');
  return {
    code: 0,
    log: '',
    codespace: '',
    value: QueryAccountResponse.encode({ account: accountAny(account) }).finish(),
  };
}

/** The bank keeper's `AllBalances`: the account's non-zero coins by denom, paged as `CollectionPaginate` pages. */
async function queryAllBalances(node: ChainNode, data: Uint8Array, height: number): Promise<QueryAnswer> {
  let request: ReturnType<typeof QueryAllBalancesRequest.decode>;
  try {
    request = QueryAllBalancesRequest.decode(data);
  } catch (err) {
    return grpcError('InvalidArgument', (err as Error).message, 18, 'invalid request');
  }
  let prefix: string;
  try {
    prefix = fromBech32(request.address).prefix;
  } catch (err) {
    const desc = `invalid address: decoding bech32 failed: ${(err as Error).message}`;
    return grpcError('InvalidArgument', desc, 18, 'invalid request');
  }
  const expected = node.info.bech32Prefix;
  if (prefix !== expected) {
    const desc = `invalid address: hrp does not match bech32 prefix: expected '${expected}' got '${prefix}': internal logic error`;
    return grpcError('InvalidArgument', desc, 18, 'invalid request');
  }
  const coins = (await node.balances(request.address, height))
    .filter((coin) => coin.amount !== '0')
    .sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));
  const asked = request.pagination;
  const limit = Number(asked?.limit ?? 0n);
  let page: ReturnType<typeof paginate<(typeof coins)[number]>>;
  try {
    page = paginate(coins, (coin) => Buffer.from(coin.denom), {
      key: asked?.key.length ? asked.key : undefined,
      offset: Number(asked?.offset ?? 0n),
      limit: limit === 0 ? DEFAULT_LIMIT : limit,
      countTotal: (asked?.countTotal ?? false) || limit === 0,
      reverse: asked?.reverse ?? false,
    });
  } catch (err) {
    if (err instanceof GatewayError) return grpcError('InvalidArgument', err.message, 18, 'invalid request');
    throw err;
  }
  const { next_key: nextKey, total } = page.pagination;
  return {
    code: 0,
    log: '',
    codespace: '',
    value: QueryAllBalancesResponse.encode({
      balances: page.items,
      pagination: {
        nextKey: nextKey === null ? new Uint8Array() : Buffer.from(nextKey, 'base64'),
        total: BigInt(total),
      },
    }).finish(),
  };
}

/**
 * The tx service's Simulate over the query router (cosmos-sdk `x/auth/tx/service.go`): a failed
 * simulation is a gRPC Unknown status, which BaseApp's `gRPCErrorToSDKError` turns into code 6.
 */
async function simulate(node: ChainNode, data: Uint8Array): Promise<QueryAnswer> {
  let txBytes: Uint8Array;
  try {
    txBytes = SimulateRequest.decode(data).txBytes;
  } catch (err) {
    return grpcError('InvalidArgument', (err as Error).message, 18, 'invalid request');
  }
  if (txBytes.length === 0)
    return grpcError('InvalidArgument', 'empty txBytes is not allowed', 18, 'invalid request');
  let result: Awaited<ReturnType<ChainNode['simulateTx']>>;
  try {
    result = await node.simulateTx(txBytes);
  } catch (err) {
    const desc = `${(err as Error).message}: tx parse error With gas wanted: '0' and gas used: '0' `;
    return grpcError('Unknown', desc, 6, 'unknown request');
  }
  if (result.error !== undefined) {
    const desc = `${result.error} With gas wanted: '${result.gasWanted}' and gas used: '${result.gasUsed}' `;
    return grpcError('Unknown', desc, 6, 'unknown request');
  }
  const value = SimulateResponse.encode(
    SimulateResponse.fromPartial({
      gasInfo: { gasWanted: result.gasWanted, gasUsed: result.gasUsed },
      result: {
        data: new Uint8Array(),
        log: '',
        events: result.events.map((event) => ({
          type: event.type,
          attributes: event.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? false })),
        })),
        msgResponses: [],
      },
    }),
  ).finish();
  return { code: 0, log: '', codespace: '', value };
}

type QueryHandler = (node: ChainNode, data: Uint8Array, height: number) => Promise<QueryAnswer>;

const QUERIES: Record<string, QueryHandler> = {
  '/cosmos.auth.v1beta1.Query/Account': queryAccount,
  '/cosmos.tx.v1beta1.Service/Simulate': (node, data) => simulate(node, data),
  '/cosmos.bank.v1beta1.Query/AllBalances': queryAllBalances,
};

/** `abci_query?path=&data=&height=&prove=`: `data` is hex, as CometBFT's `HexBytes`. */
export async function abciQuery(node: ChainNode, params: MethodParams): Promise<string> {
  const path = params.string('path') ?? '';
  const hex = params.string('data') ?? '';
  let data: Uint8Array;
  try {
    data = fromHex(hex.replace(/^0x/i, ''));
  } catch (err) {
    throw internalError(`invalid data: ${(err as Error).message}`);
  }
  const latest = node.latestHeight();
  const requested = params.int('height') ?? 0;
  if (requested > latest) {
    return responseJson(
      {
        code: 26,
        log: `cannot query with height in the future; please provide a valid height: invalid height`,
        codespace: 'sdk',
      },
      requested,
    );
  }
  const height = requested > 0 ? requested : latest;
  const handler = QUERIES[path];
  if (!handler) {
    return responseJson({ code: 6, log: 'unknown query path: unknown request', codespace: 'sdk' }, height);
  }
  return responseJson(await handler(node, data, height), height);
}
