import type { FastifyInstance } from 'fastify';
import { denomOfMetadata } from 'weft/protocol/move-denom.js';
import { parseMoveAddress } from '../move/address.js';
import type { MoveNode, MoveViewCall } from '../node.js';
import { invalidArgument, invalidRequest, unknownError } from './gateway-errors.js';
import { type RestContext, sendJson } from './rest-context.js';

/**
 * initia's Move queries (`/initia/move/v1/*`) on a Move chain: resources, views (`Query/ViewJSON` with
 * JSON args, `Query/LegacyView` with BCS args, one querier behind both) and the denom of a fungible
 * asset's metadata. The VM's errors reach the gateway as plain Go errors: Unknown, HTTP 500.
 */

type Query = Record<string, unknown>;
/** Gas a view reports: the emulated modules do not meter queries. */
const VIEW_GAS = 40_000;
/** protojson's bytes: standard or URL-safe base64, padded or not. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export function registerMoveRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { node } = ctx;
  const move = node.move;
  if (!move) return;

  app.get('/initia/move/v1/accounts/:address/resources/by_struct_tag', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const { address } = request.params as { address: string };
    const structTag = String((request.query as Query).struct_tag ?? '');
    if (!/^0x[0-9a-fA-F]+::\w+::\w+/.test(structTag)) throw unknownError(`invalid struct tag: ${structTag}`);
    const resource = move.resource(address, structTag, height);
    if (!resource) throw unknownError(`collections: not found: key '${address}/${structTag}' of type []byte`);
    return sendJson(reply, JSON.stringify({ resource }));
  });

  /** The querier's `View`/`ViewJSON`: the call checked, run at the height, its result as a JSON string. */
  const view = (call: MoveViewCall, height: number) => {
    if (call.address === '') throw invalidArgument('empty address');
    if (call.moduleName === '') throw invalidRequest('empty module name');
    if (call.functionName === '') throw invalidRequest('empty function name');
    return JSON.stringify({ data: runView(move, call, height), events: [], gas_used: String(VIEW_GAS) });
  };
  const strings = (body: Record<string, unknown>, field: string) => {
    const value = body[field] ?? [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
      throw invalidArgument(`proto: syntax error: ${field} must be a list of strings`);
    return value as string[];
  };

  app.post('/initia/move/v1/view/json', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const body = ctx.jsonBody(request);
    const call = {
      address: String(body.address ?? ''),
      moduleName: String(body.module_name ?? ''),
      functionName: String(body.function_name ?? ''),
      typeArgs: strings(body, 'type_args'),
      args: strings(body, 'args'),
    };
    return sendJson(reply, view(call, height));
  });

  // `Query/LegacyView` (what `@initia/utils`' `createMoveClient` calls): the call in the path, args as bytes.
  app.post(
    '/initia/move/v1/accounts/:address/modules/:module_name/view_functions/:function_name',
    async (request, reply) => {
      const height = ctx.stateHeight(request, reply);
      const params = request.params as { address: string; module_name: string; function_name: string };
      const body = ctx.jsonBody(request);
      const args = strings(body, 'args').map((arg) => {
        if (!BASE64.test(arg))
          throw invalidArgument(`proto: syntax error: invalid value for bytes type: ${JSON.stringify(arg)}`);
        return Uint8Array.from(Buffer.from(arg.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
      });
      const call = {
        address: params.address,
        moduleName: params.module_name,
        functionName: params.function_name,
        typeArgs: strings(body, 'type_args'),
        args,
      };
      return sendJson(reply, view(call, height));
    },
  );

  // `Query/Denom`: the coin whose fungible asset has this metadata object, among the chain's coins.
  app.get('/initia/move/v1/denom', async (request, reply) => {
    const height = ctx.stateHeight(request, reply);
    const text = String((request.query as Query).metadata ?? '');
    let metadata: Uint8Array;
    try {
      metadata = parseMoveAddress(text, node.info.bech32Prefix);
    } catch (err) {
      throw unknownError((err as Error).message);
    }
    const denoms = new Set<string>();
    for (const account of node.accounts(height))
      for (const coin of await node.balances(account.address, height)) denoms.add(coin.denom);
    const denom = denomOfMetadata(metadata, denoms);
    if (denom === undefined) {
      const key = `${Buffer.from(metadata).toString('hex')}/0x1::fungible_asset::Metadata`;
      throw unknownError(`collections: not found: key '${key}' of type []byte`);
    }
    return sendJson(reply, JSON.stringify({ denom }));
  });
}

function runView(move: MoveNode, call: MoveViewCall, height: number): string {
  if (!move.view) throw unknownError('VM error: status LINKER_ERROR of type Verification');
  try {
    return move.view(call, height);
  } catch (err) {
    throw unknownError((err as Error).message);
  }
}
