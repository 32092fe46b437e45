import type { FastifyInstance } from 'fastify';
import { addressBytes, toChecksumAddress, toHexAddress } from 'weft/chain/address.js';
import { invalidArgument, notFound, unknownError } from './gateway-errors.js';
import { type RestContext, sendJson } from './rest-context.js';

/** The VM modules' queries: minievm (`/minievm/evm/v1/*`) and CosmWasm contracts (Move's are in `rest-move.ts`). */

type Query = Record<string, unknown>;

export function registerVmRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { node } = ctx;
  const prefix = node.info.bech32Prefix;
  /** minievm's `ContractAddressFromString`: hex or bech32, as 0x hex. */
  const evmAddress = (input: string) => {
    try {
      return toHexAddress(addressBytes(input, prefix));
    } catch (err) {
      throw invalidArgument((err as Error).message);
    }
  };

  const evm = node.evm;
  if (evm) {
    app.post('/minievm/evm/v1/call', async (request, reply) => {
      const height = ctx.stateHeight(request, reply);
      const body = ctx.jsonBody(request);
      const from = evmAddress(String(body.sender ?? ''));
      const to = body.contract_addr ? evmAddress(String(body.contract_addr)) : undefined;
      const valueText = String(body.value ?? '0') || '0';
      if (!/^\d+$/.test(valueText)) throw invalidArgument(`invalid value: ${valueText}`);
      const input = String(body.input ?? '');
      const data = input === '' ? '0x' : input.startsWith('0x') ? input : `0x${input}`;
      if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw invalidArgument(`invalid input: ${input}`);
      const result = await evm.call({ from, to, data, value: BigInt(valueText) }, height);
      // The EVM node words errors as minievm's query server does (`revert: <reason>: Reverted`, …).
      const error = result.error ?? '';
      const failed = error !== '';
      return sendJson(
        reply,
        JSON.stringify({
          response: failed ? '' : result.returnData,
          used_gas: result.gasUsed.toString(),
          logs: [],
          trace_output: '',
          error,
        }),
      );
    });

    app.get('/minievm/evm/v1/contracts/by_denom', async (request, reply) => {
      ctx.stateHeight(request, reply);
      const denom = String((request.query as Query).denom ?? '');
      if (denom === '') throw invalidArgument('empty denom');
      const address = evm.contractByDenom(denom);
      if (!address) throw notFound(`collections: not found: key '${denom}' of type string`);
      return sendJson(reply, JSON.stringify({ address: toChecksumAddress(address) }));
    });

    app.get('/minievm/evm/v1/contracts/erc20_factory', async (request, reply) => {
      ctx.stateHeight(request, reply);
      const address = evm.erc20Factory();
      if (!address) throw notFound("collections: not found: key 'no_key' of type []byte");
      return sendJson(reply, JSON.stringify({ address }));
    });

    app.get('/minievm/evm/v1/denoms/:contract_addr', async (request, reply) => {
      ctx.stateHeight(request, reply);
      const address = evmAddress((request.params as { contract_addr: string }).contract_addr);
      return sendJson(reply, JSON.stringify({ denom: evm.denomByContract(address) }));
    });

    app.get('/minievm/evm/v1/codes/:contract_addr', async (request, reply) => {
      const height = ctx.stateHeight(request, reply);
      const address = evmAddress((request.params as { contract_addr: string }).contract_addr);
      return sendJson(reply, JSON.stringify({ code: evm.code(address, height) || '0x' }));
    });
  }

  const wasm = node.wasm;
  if (wasm) {
    app.get('/cosmwasm/wasm/v1/contract/:address/smart/*', async (request, reply) => {
      const height = ctx.stateHeight(request, reply);
      const params = request.params as { address: string; '*': string };
      const address = ctx.accountAddress(params.address, (m) => invalidArgument(m));
      let query: unknown;
      try {
        const text = Buffer.from(params['*'].replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString(
          'utf8',
        );
        query = JSON.parse(text);
      } catch {
        throw invalidArgument('query data must be json');
      }
      if (!wasm.contractInfo(address, height)) {
        throw unknownError(`codespace wasm code 22: no such contract: address ${address}`);
      }
      let data: unknown;
      try {
        data = wasm.smartQuery(address, query, height);
      } catch (err) {
        throw unknownError(`codespace wasm code 9: query wasm contract failed: ${(err as Error).message}`);
      }
      return sendJson(reply, JSON.stringify({ data }));
    });

    app.get('/cosmwasm/wasm/v1/contract/:address', async (request, reply) => {
      const height = ctx.stateHeight(request, reply);
      const address = ctx.accountAddress((request.params as { address: string }).address, (m) =>
        invalidArgument(m),
      );
      const info = wasm.contractInfo(address, height);
      if (!info) throw unknownError(`codespace wasm code 22: no such contract: address ${address}`);
      return sendJson(reply, JSON.stringify({ address, contract_info: info }));
    });
  }
}
