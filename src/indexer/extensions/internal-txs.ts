import { NodeQueryError } from '../../chain/endpoints.js';
import type { JsonRpcClient } from '../../chain/json-rpc-client.js';
import { errorMessage } from '../../common/errors.js';
import type { IndexedInternalTx } from '../../store/records.js';
import type { BlockWriter } from '../../store/writer.js';
import { createConcurrency } from '../concurrency.js';
import { flattenTraces, type TraceEntry } from '../decode/index.js';
import type { PrepareContext } from '../pipeline.js';
import { createTrailingPipeline, type TrailingOptions } from './trailing.js';

/**
 * EVM internal txs: `debug_traceBlockByNumber` (callTracer) of every indexed height that has Ethereum txs,
 * flattened and written in height order with their own progress height. Heights are traced concurrently
 * behind the block indexer; after a restart it resumes after its own progress height.
 */

export type InternalTxStore = Pick<BlockWriter, 'writeInternalTxs'>;

export interface InternalTxOptions extends TrailingOptions<IndexedInternalTx[] | undefined> {
  jsonRpc: JsonRpcClient;
  store: InternalTxStore;
  /** Progress height of the extension: it resumes after it. */
  from: number;
}

/** Genesis has no state before it: minievm refuses to trace it. */
const FIRST_TRACEABLE = 2;

/**
 * The call frames of a height (`debug_traceBlockByNumber`, flattened). The block indexer fetches them with
 * the block, while the node still has the block at hand; the extension fetches them itself only for
 * heights written before a restart. A trace the node refuses comes back as `refused`.
 */
export async function fetchInternalTxs(
  jsonRpc: JsonRpcClient,
  height: number,
  call: PrepareContext['call'],
): Promise<IndexedInternalTx[] | { refused: NodeQueryError }> {
  if (height < FIRST_TRACEABLE) return [];
  try {
    const traces = (await call((signal) => jsonRpc.traceBlock(height, signal))) as TraceEntry[];
    return flattenTraces(height, traces);
  } catch (err) {
    if (err instanceof NodeQueryError) return { refused: err };
    throw err;
  }
}

export function createInternalTxExtension(options: InternalTxOptions) {
  const { jsonRpc, indexed, logger } = options;

  const trace = async (height: number, { call }: PrepareContext) => {
    const noted = indexed.note(height);
    if (noted) return { height, calls: noted };
    const calls = await fetchInternalTxs(jsonRpc, height, call);
    if (Array.isArray(calls)) return { height, calls };
    // A trace the node refuses will be refused again: leave the height without calls and go on.
    logger.error(
      { height, err: errorMessage(calls.refused) },
      'the node cannot trace this height; its internal txs are skipped',
    );
    return { height, calls: [] as IndexedInternalTx[] };
  };

  const pipeline = createTrailingPipeline(options, {
    from: options.from,
    what: 'internal txs',
    concurrency: createConcurrency({ max: options.maxConcurrency }),
    prepare: trace,
    write: (batch) => options.store.writeInternalTxs(batch),
  });

  return {
    run: () => pipeline.run(),
    status: () => pipeline.status(),
  };
}
