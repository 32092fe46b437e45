import { NodeQueryError } from '../chain/endpoints.js';
import type { RestClient } from '../chain/rest-client.js';
import { InvalidArgumentError, NotFoundError, UpstreamError } from '../common/errors.js';
import { echo } from '../common/http.js';
import { createByteLru } from '../common/lru.js';
import { createGate } from './gate.js';
import { LOOKUP_CACHE_BYTES } from './proposers.js';

export interface DenomResolver {
  /** The rich-list key of a denom on EVM: the lowercase ERC20 address. */
  contractOf(denom: string): Promise<string>;
}

export interface DenomResolverOptions {
  rest?: RestClient;
  cacheSize: number;
  /** How long "this denom has no contract" is remembered (default 10 min). */
  missTtlMs?: number;
  /** Node look-ups in flight at once (default 4); more wait up to `maxWaitMs`, then get a 503. */
  maxLookups?: number;
  maxWaitMs?: number;
}

const CONTRACT = /^0x[0-9a-fA-F]{40}$/;
/** The Cosmos SDK's denom rule: what no chain can hold is not worth a round trip. */
const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

/** rollytics' spelling of bank denoms for `by_denom`: `ibc/` hashes upper case, `gas` as `GAS`. */
function canonicalDenom(denom: string): string {
  const lower = denom.toLowerCase();
  if (lower.startsWith('ibc/')) return `ibc/${denom.slice(4).toUpperCase()}`;
  if (lower === 'gas') return 'GAS';
  return denom;
}

/**
 * Bank denom → ERC20 contract through the chain REST (`/minievm/evm/v1/contracts/by_denom`). A
 * contract never changes, so it is kept until pushed out; a denom without one is remembered for
 * `missTtlMs`. Concurrent requests for one denom share one look-up, and a few look-ups at most go
 * to the node at once, so unknown denoms cannot turn the API into a load generator for the node.
 * A `0x` address is its own contract.
 */
export function createDenomResolver(options: DenomResolverOptions): DenomResolver {
  const cache = createByteLru<string, string>({
    maxBytes: LOOKUP_CACHE_BYTES,
    maxEntries: options.cacheSize,
  });
  const missTtlMs = options.missTtlMs ?? 10 * 60_000;
  const lookups = createGate({
    slots: options.maxLookups ?? 4,
    maxWaitMs: options.maxWaitMs ?? 2000,
    maxWaiting: 100,
    resource: 'a look-up at the chain node',
  });
  const pending = new Map<string, Promise<string>>();
  /** The empty string marks a denom known to have no contract. */
  const NONE = '';

  const lookUp = async (rest: RestClient, denom: string): Promise<string> => {
    try {
      for (const candidate of new Set([denom, canonicalDenom(denom)])) {
        const contract = await rest.contractByDenom(candidate);
        if (contract) return contract;
      }
      return NONE;
    } catch (err) {
      if (err instanceof NodeQueryError && err.httpStatus < 500) return NONE;
      throw new UpstreamError(
        `the chain node is unreachable: cannot resolve denom ${denom} through its REST`,
        {
          code: 'WEFT_ERR_NODE_UNREACHABLE',
          cause: err,
        },
      );
    }
  };

  const resolve = (rest: RestClient, denom: string): Promise<string> => {
    let running = pending.get(denom);
    if (!running) {
      running = lookups
        .run(() => lookUp(rest, denom))
        .then((contract) => {
          cache.set(denom, contract, contract === NONE ? { ttl: missTtlMs } : {});
          return contract;
        })
        .finally(() => pending.delete(denom));
      pending.set(denom, running);
    }
    return running;
  };

  return {
    async contractOf(denom) {
      if (CONTRACT.test(denom)) return denom.toLowerCase();
      if (!DENOM.test(denom)) {
        throw new InvalidArgumentError(
          `invalid value for denom: ${echo(denom)} (must be a bank denom or an ERC20 address 0x…)`,
        );
      }
      let contract = cache.get(denom);
      if (contract === undefined) {
        if (!options.rest) {
          throw new NotFoundError(
            `denom ${denom} cannot be resolved without REST_URL; ask by its ERC20 contract (0x…) instead`,
          );
        }
        contract = await resolve(options.rest, denom);
      }
      if (contract === NONE) throw new NotFoundError(`denom ${denom} has no ERC20 contract on this chain`);
      return contract;
    },
  };
}
