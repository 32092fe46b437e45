import { NodeQueryError } from '../chain/endpoints.js';
import type { RestClient } from '../chain/rest-client.js';
import { errorMessage } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { createByteLru } from '../common/lru.js';

export interface Proposer {
  moniker: string;
  identity: string;
  operator_address: string;
}

export interface ProposerDirectory {
  /** The proposers of some blocks, by valoper address. Never fails: see `createProposerDirectory`. */
  lookup(valopers: Iterable<string>): Promise<Map<string, Proposer>>;
}

export interface ProposerDirectoryOptions {
  /** Absent: no lookups, every proposer is its operator address. */
  rest?: RestClient;
  cacheSize: number;
  /** How long a failed lookup is answered from the fallback before asking again. */
  retryAfterMs?: number;
  /**
   * How long a node's answer that it has no such validator (gRPC NotFound or Unimplemented: a chain
   * without the opchild module, such as the L1) is kept before asking again.
   */
  absentForMs?: number;
  logger: Logger;
}

/** Bytes of REST answers an API process keeps per look-up cache. */
export const LOOKUP_CACHE_BYTES = 4 * 1024 * 1024;

/** gRPC codes of a node that answered and has no such validator: NotFound, Unimplemented. */
const ABSENT_CODES = new Set([5, 12]);

/**
 * Block proposers' monikers from the chain REST (`/opinit/opchild/v1/validator/{valoper}`), kept
 * in an LRU. A block list must not fail because the REST does: a failed lookup answers the
 * operator address with an empty moniker, and that fallback is kept for a while so a dead REST
 * costs one timeout, not one per request. A node that answers it has no such validator is believed
 * for longer (`absentForMs`), and said at info level: on a rollup launched by OPinit's tools the
 * proposer's consensus address is its operator's, so this is a chain without the opchild module.
 */
export function createProposerDirectory(options: ProposerDirectoryOptions): ProposerDirectory {
  const known = createByteLru<string, Proposer>({
    maxBytes: LOOKUP_CACHE_BYTES,
    maxEntries: options.cacheSize,
  });
  const pending = new Map<string, Promise<Proposer>>();
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  const absentForMs = options.absentForMs ?? 3_600_000;
  const fallback = (valoper: string): Proposer => ({ moniker: '', identity: '', operator_address: valoper });

  const fetchOne = async (valoper: string): Promise<Proposer> => {
    if (!options.rest) return fallback(valoper);
    try {
      const validator = await options.rest.validator(valoper);
      const proposer = {
        moniker: String(validator?.moniker ?? ''),
        identity: '',
        operator_address: String(validator?.operator_address ?? valoper),
      };
      known.set(valoper, proposer);
      return proposer;
    } catch (err) {
      const absent = err instanceof NodeQueryError && ABSENT_CODES.has(err.nodeCode ?? -1);
      if (absent) {
        options.logger.info(
          { valoper, err: errorMessage(err) },
          'the chain names no validator for this proposer; serving the operator address',
        );
      } else {
        options.logger.warn(
          { valoper, err: errorMessage(err) },
          'proposer lookup failed; serving the operator address',
        );
      }
      const proposer = fallback(valoper);
      known.set(valoper, proposer, { ttl: absent ? absentForMs : retryAfterMs });
      return proposer;
    }
  };

  const one = (valoper: string): Promise<Proposer> => {
    const cached = known.get(valoper);
    if (cached) return Promise.resolve(cached);
    let running = pending.get(valoper);
    if (!running) {
      running = fetchOne(valoper).finally(() => pending.delete(valoper));
      pending.set(valoper, running);
    }
    return running;
  };

  return {
    async lookup(valopers) {
      const unique = [...new Set(valopers)];
      const found = await Promise.all(unique.map(one));
      return new Map(unique.map((valoper, i) => [valoper, found[i]!]));
    },
  };
}
