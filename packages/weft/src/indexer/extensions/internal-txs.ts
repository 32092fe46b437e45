import { NodeQueryError } from '../../chain/endpoints.js';
import type { JsonRpcClient } from '../../chain/json-rpc-client.js';
import { errorMessage } from '../../common/errors.js';
import { timed } from '../../common/stage-times.js';
import type { IndexedInternalTx } from '../../store/records.js';
import type { BlockWriter } from '../../store/writer.js';
import { createConcurrency } from '../concurrency.js';
import { type DropReporter, flattenTraces, type TraceEntry } from '../decode/index.js';
import type { PrepareContext } from '../pipeline.js';
import { createTrailingPipeline, type TrailingOptions } from './trailing.js';

/**
 * EVM internal txs: `debug_traceBlockByNumber` (callTracer) of every indexed height that has Ethereum txs,
 * flattened and written in height order with their own progress height. Heights are traced concurrently
 * behind the block indexer; after a restart, or a failure, it resumes after its own progress height.
 */

export type InternalTxStore = Pick<BlockWriter, 'writeInternalTxs' | 'progress'>;

export interface InternalTxOptions extends TrailingOptions<IndexedInternalTx[] | undefined> {
  jsonRpc: JsonRpcClient;
  store: InternalTxStore;
  /** Progress height of the extension: it resumes after it. */
  from: number;
  drops?: DropReporter;
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
  drops?: DropReporter,
): Promise<IndexedInternalTx[] | { refused: NodeQueryError }> {
  if (height < FIRST_TRACEABLE) return [];
  try {
    const traces = (await call((signal) => jsonRpc.traceBlock(height, signal))) as TraceEntry[];
    return timed('decode', (t) => flattenTraces(height, t, drops), traces);
  } catch (err) {
    if (err instanceof NodeQueryError) return { refused: err };
    throw err;
  }
}

export function createInternalTxExtension(options: InternalTxOptions) {
  const { jsonRpc, indexed, logger, store } = options;
  let from = options.from;

  const trace = async (height: number, { call }: PrepareContext) => {
    const noted = indexed.note(height);
    if (noted) return { height, calls: noted };
    const calls = await fetchInternalTxs(jsonRpc, height, call, options.drops);
    if (Array.isArray(calls)) return { height, calls };
    // A trace the node refuses will be refused again: leave the height without calls and go on.
    logger.error(
      { height, err: errorMessage(calls.refused) },
      'the node cannot trace this height; its internal txs are skipped',
    );
    return { height, calls: [] as IndexedInternalTx[] };
  };

  const concurrency = createConcurrency({ max: options.maxConcurrency });
  const onWritten = (height: number) => {
    from = height;
    options.onWritten?.(height);
  };

  return {
    /** Traces until the abort; called again after a failure, it resumes after what is written. */
    async run() {
      // A write whose commit went through though its answer was lost is in the store, not in `from`.
      from = Math.max(from, (await store.progress()).internalTxHeight);
      const pipeline = createTrailingPipeline(
        { ...options, onWritten },
        {
          from,
          what: 'internal txs',
          concurrency,
          prepare: trace,
          write: (batch) => store.writeInternalTxs(batch),
        },
      );
      await pipeline.run();
    },
  };
}
