import type { RestClient } from '../chain/rest-client.js';

/** The chain's latest height as its node reports it, for `/status` to say how far indexing lags. */
export interface ChainHead {
  /** The node's latest height, at most `maxAgeMs` old; undefined when no node answers. */
  height(): Promise<number | undefined>;
}

/**
 * Asks the chain's REST node at most once per `maxAgeMs`, whatever the request rate: concurrent
 * callers share one request, and a node that does not answer is asked again only after the same
 * interval. Without a REST node the head is unknown.
 */
export function createChainHead(rest: RestClient | undefined, maxAgeMs = 1000): ChainHead {
  let cached: { at: number; height: number | undefined } | undefined;
  let inFlight: Promise<number | undefined> | undefined;
  return {
    async height() {
      if (!rest) return undefined;
      if (cached && Date.now() - cached.at < maxAgeMs) return cached.height;
      inFlight ??= rest
        .latestHeight(AbortSignal.timeout(maxAgeMs * 2))
        .catch(() => undefined)
        .then((height) => {
          cached = { at: Date.now(), height };
          inFlight = undefined;
          return height;
        });
      return inFlight;
    },
  };
}
