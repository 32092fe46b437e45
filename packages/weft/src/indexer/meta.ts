import { NodeQueryError } from '../chain/endpoints.js';
import type { RestClient } from '../chain/rest-client.js';
import { createByteLru } from '../common/lru.js';
import type { MetaAnswer, MetaRequest } from './bundle.js';

/**
 * Answers the decoder's metadata questions through REST at the block's height. The node's own refusals (a
 * revert, an unknown query) are answers too; node trouble is thrown so the height is fetched again.
 * Answers whose key names no height (a collection's name, a contract's creator) do not change once they
 * exist, so they are kept across heights in a small LRU, bounded in entries and in bytes (`cacheSize: 0`
 * keeps none: every height asks its own, as `weft record` needs).
 */

/** Runs one node call, retrying node trouble (the pipeline's `PrepareContext.call`). */
export type NodeCall = <R>(fn: (signal: AbortSignal) => Promise<R>) => Promise<R>;

export interface MetaAnswerer {
  answer(requests: readonly MetaRequest[], height: number, call: NodeCall): Promise<Map<string, MetaAnswer>>;
  readonly cached: number;
}

/** Keys with `@<height>` are asked for that height only. */
const heightBound = (key: string) => /^[a-z-]+@\d+:/.test(key);

export function createMetaAnswerer(
  rest: RestClient,
  options: { cacheSize?: number; cacheBytes?: number } = {},
): MetaAnswerer {
  const cache = createByteLru<string, MetaAnswer>({
    maxEntries: options.cacheSize ?? 10_240,
    maxBytes: options.cacheBytes ?? 16 * 1024 * 1024,
  });

  const keeps = options.cacheSize !== 0;
  const remember = (key: string, answer: MetaAnswer) => {
    if (keeps && !heightBound(key)) cache.set(key, answer);
  };

  const ask = async (request: MetaRequest, height: number, signal: AbortSignal): Promise<MetaAnswer> => {
    try {
      switch (request.kind) {
        case 'evm-call': {
          const { response, error } = await rest.evmCall(request.contract, request.input, height, signal);
          return error ? { ok: false, error } : { ok: true, value: response };
        }
        case 'move-resource': {
          const resource = await rest.moveResource(request.address, request.structTag, height, signal);
          return { ok: true, value: JSON.parse(String(resource?.move_resource ?? 'null')) };
        }
        case 'wasm-smart':
          return { ok: true, value: await rest.wasmSmart(request.contract, request.query, height, signal) };
        case 'wasm-contract-info':
          return { ok: true, value: await rest.wasmContractInfo(request.contract, height, signal) };
      }
    } catch (err) {
      if (err instanceof NodeQueryError) return { ok: false, error: err.detail };
      throw err;
    }
  };

  return {
    get cached() {
      return cache.size;
    },
    async answer(requests, height, call) {
      const answers = new Map<string, MetaAnswer>();
      await Promise.all(
        requests.map(async (request) => {
          const known = cache.get(request.key);
          if (known) {
            answers.set(request.key, known);
            return;
          }
          const answer = await call((signal) => ask(request, height, signal));
          remember(request.key, answer);
          answers.set(request.key, answer);
        }),
      );
      return answers;
    },
  };
}
