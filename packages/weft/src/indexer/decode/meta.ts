import type { MetaAnswer, MetaRequest } from '../bundle.js';
import { MissingMetaError } from './errors.js';

/**
 * Keys of the metadata requests. A key without `@<height>` names an answer that does not change once it
 * exists (a collection's name or creator, which token an object is), so the fetch stage may cache it across
 * heights; a key with `@<height>` is asked for that height only (a token's URI as of its mint).
 */
export const metaKeys = {
  evmCall: (contract: string, input: string, height?: number) =>
    `evm-call${height === undefined ? '' : `@${height}`}:${contract}:${input}`,
  moveResource: (address: string, structTag: string, height?: number) =>
    `move-resource${height === undefined ? '' : `@${height}`}:${address}:${structTag}`,
  wasmSmart: (contract: string, query: unknown) => `wasm-smart:${contract}:${JSON.stringify(query)}`,
  wasmContractInfo: (contract: string) => `wasm-contract-info:${contract}`,
};

/** Requests in first-asked order, each key once. */
export function createRequestList() {
  const requests = new Map<string, MetaRequest>();
  return {
    add(request: MetaRequest) {
      if (!requests.has(request.key)) requests.set(request.key, request);
    },
    list: () => [...requests.values()],
  };
}
export type RequestList = ReturnType<typeof createRequestList>;

/** Answers of one block's requests; a request the bundle did not answer is a fetch-stage bug. */
export interface MetaAnswers {
  get(key: string): MetaAnswer;
}

export function metaAnswers(height: number, meta: Map<string, MetaAnswer>): MetaAnswers {
  return {
    get(key) {
      const answer = meta.get(key);
      if (!answer) throw new MissingMetaError(height, key);
      return answer;
    },
  };
}
