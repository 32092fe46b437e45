import { fromHex } from '@cosmjs/encoding';
import { BaseAccount, ModuleAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { fromBech32 } from '../../chain/address.js';
import { encodeAny } from '../../chain/registry.js';
import type { AccountView, ChainNode } from '../node.js';
import { internalError } from './comet-errors.js';
import type { MethodParams } from './comet-params.js';

/**
 * CometBFT `abci_query` for the gRPC query a wallet makes before it signs: `/cosmos.auth.v1beta1.Query/Account`
 * (cosmjs `getSequence`, which SigningStargateClient calls for the account number and sequence). The
 * answer is the ABCI `ResponseQuery` the SDK's BaseApp gives, errors included.
 */

const ACCOUNT_PATH = '/cosmos.auth.v1beta1.Query/Account';

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

function queryAccount(node: ChainNode, data: Uint8Array, height: number): QueryAnswer {
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

/** `abci_query?path=&data=&height=&prove=`: `data` is hex, as CometBFT's `HexBytes`. */
export function abciQuery(node: ChainNode, params: MethodParams): string {
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
  if (path !== ACCOUNT_PATH) {
    return responseJson({ code: 6, log: 'unknown query path: unknown request', codespace: 'sdk' }, height);
  }
  return responseJson(queryAccount(node, data, height), height);
}
