import type { FastifyReply, FastifyRequest } from 'fastify';
import { addressBytes, fromBech32, toBech32 } from 'weft/chain/address.js';
import { GrpcCode } from 'weft/common/errors.js';
import { createByteLru, type Lru } from 'weft/common/lru.js';
import type { ChainNode } from '../node.js';
import { createFaults, type Faults } from './faults.js';
import {
  type GatewayError,
  invalidArgument,
  invalidHeight,
  invalidRequest,
  sdkError,
  unknownError,
} from './gateway-errors.js';
import { DEFAULT_CACHE_BYTES, type NodeServerOptions, responseCache } from './http-app.js';

/** What the REST routes share: the chain, its caches, and the SDK's handling of heights, addresses, bodies. */

export interface RestServerOptions extends NodeServerOptions {
  /** Answer `txs/block/{h}` with `next_key: null` as the real SDK does (clients must page by offset). */
  nullNextKey?: boolean;
}

/** A block's REST rendering, kept so pages of its txs do not render it again. */
export interface BlockTxs {
  blockId: string;
  block: string;
  txs: string[];
}

export interface RestContext {
  node: ChainNode;
  faults: Faults;
  /** Serialised responses by `<kind>:<height>`. */
  cache: Lru<string, string>;
  /** The pieces of `txs/block/{h}`, serialised once and spliced per page. */
  blockTxs: Lru<string, BlockTxs>;
  options: RestServerOptions;
  /** The height a state query reads: the `x-cosmos-block-height` header, checked as the SDK checks it. */
  stateHeight(request: FastifyRequest, reply: FastifyReply): number;
  /** bech32 account address of an address given as bech32 or hex; `onError` names the query's error. */
  accountAddress(input: string, onError?: (message: string) => GatewayError): string;
  /**
   * Checks an address as the SDK's bech32 address codec (`StringToBytes`) does, bech32 of this chain's
   * prefix only; `onError` names the query's error for the codec's message.
   */
  bech32Address(input: string, onError: (message: string) => GatewayError): string;
  /** A POST body: grpc-gateway decodes whatever arrives as JSON. */
  jsonBody(request: FastifyRequest): Record<string, unknown>;
}

const HEIGHT_HEADER = 'x-cosmos-block-height';

export function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.code(200).header('content-type', 'application/json').send(body);
}

export function createRestContext(node: ChainNode, options: RestServerOptions): RestContext {
  const faults = options.faults ?? createFaults();
  return {
    node,
    faults,
    cache: responseCache(options),
    blockTxs: createByteLru<string, BlockTxs>({
      maxBytes: options.cacheBytes ?? DEFAULT_CACHE_BYTES,
      sizeOf: (parts) =>
        parts.blockId.length + parts.block.length + parts.txs.reduce((n, tx) => n + tx.length, 0),
    }),
    options,
    stateHeight(request, reply) {
      const latest = node.latestHeight();
      const header = request.headers[HEIGHT_HEADER];
      const text = Array.isArray(header) ? header[0] : header;
      let height = latest;
      if (text !== undefined && text !== '') {
        if (!/^-?\d+$/.test(text)) {
          throw invalidRequest(
            `Baseapp.RegisterGRPCServer: invalid height header "${HEIGHT_HEADER}": strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`,
          );
        }
        const requested = Number(text);
        if (requested < 0)
          throw invalidRequest('cannot query with height < 0; please provide a valid height');
        if (requested > latest) {
          throw invalidHeight('cannot query with height in the future; please provide a valid height');
        }
        if (requested > 0) height = requested;
      }
      if (height < faults.earliestHeight(node)) {
        throw sdkError(
          GrpcCode.NOT_FOUND,
          'sdk',
          38,
          'not found',
          `failed to load state at height ${height}; version does not exist (latest height: ${latest})`,
        );
      }
      reply.header('grpc-metadata-x-cosmos-block-height', String(height));
      return height;
    },
    accountAddress(input, onError = unknownError) {
      try {
        return toBech32(node.info.bech32Prefix, addressBytes(input, node.info.bech32Prefix));
      } catch (err) {
        throw onError((err as Error).message);
      }
    },
    bech32Address(input, onError) {
      if (input.trim() === '') throw onError('empty address string is not allowed');
      let prefix: string;
      try {
        prefix = fromBech32(input).prefix;
      } catch (err) {
        throw onError(`decoding bech32 failed: ${(err as Error).message}`);
      }
      const expected = node.info.bech32Prefix;
      if (prefix !== expected)
        throw onError(
          `hrp does not match bech32 prefix: expected '${expected}' got '${prefix}': internal logic error`,
        );
      return input;
    },
    jsonBody(request) {
      const body = typeof request.body === 'string' ? request.body : '';
      if (body.trim() === '') return {};
      try {
        const parsed = JSON.parse(body) as unknown;
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          return parsed as Record<string, unknown>;
      } catch (err) {
        throw invalidArgument((err as Error).message);
      }
      throw invalidArgument('json: cannot unmarshal the request body into an object');
    },
  };
}
