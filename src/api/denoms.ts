import { NodeQueryError } from '../chain/endpoints.js';
import type { RestClient } from '../chain/rest-client.js';
import { NotFoundError, UpstreamError } from '../common/errors.js';
import { createLru } from './lru.js';

export interface DenomResolver {
  /** The rich-list key of a denom on EVM: the lowercase ERC20 address. */
  contractOf(denom: string): Promise<string>;
}

const CONTRACT = /^0x[0-9a-fA-F]{40}$/;

/** rollytics' spelling of bank denoms for `by_denom`: `ibc/` hashes upper case, `gas` as `GAS`. */
function canonicalDenom(denom: string): string {
  const lower = denom.toLowerCase();
  if (lower.startsWith('ibc/')) return `ibc/${denom.slice(4).toUpperCase()}`;
  if (lower === 'gas') return 'GAS';
  return denom;
}

/**
 * Bank denom → ERC20 contract through the chain REST (`/minievm/evm/v1/contracts/by_denom`), kept
 * in an LRU (a denom's contract never changes; a miss is remembered for a minute). A `0x`
 * address is its own contract.
 */
export function createDenomResolver(options: {
  rest?: RestClient;
  cacheSize: number;
  missTtlMs?: number;
}): DenomResolver {
  const cache = createLru<string | null>(options.cacheSize);
  const missTtlMs = options.missTtlMs ?? 60_000;
  return {
    async contractOf(denom) {
      if (CONTRACT.test(denom)) return denom.toLowerCase();
      const cached = cache.get(denom);
      if (cached === null) throw noContract(denom);
      if (cached !== undefined) return cached;
      if (!options.rest) {
        throw new NotFoundError(
          `denom ${denom} cannot be resolved without REST_URL; ask by its ERC20 contract (0x…) instead`,
        );
      }
      let contract: string | undefined;
      try {
        for (const candidate of new Set([denom, canonicalDenom(denom)])) {
          contract = await options.rest.contractByDenom(candidate);
          if (contract) break;
        }
      } catch (err) {
        if (err instanceof NodeQueryError && err.httpStatus < 500) {
          contract = undefined;
        } else {
          throw new UpstreamError(`cannot resolve denom ${denom}: the chain REST is not answering`, {
            cause: err,
          });
        }
      }
      cache.set(denom, contract ?? null, contract ? undefined : missTtlMs);
      if (!contract) throw noContract(denom);
      return contract;
    },
  };
}

const noContract = (denom: string) => new NotFoundError(`denom ${denom} has no ERC20 contract on this chain`);
