import { errorMessage, isRetryable } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import type { BalanceDelta } from '../../store/records.js';
import type { BlockWriter, StoreProgress } from '../../store/writer.js';
import type { IndexerConfig } from '../config.js';
import type { NodeClients } from '../fetch.js';
import type { IndexerMetrics } from '../metrics.js';
import { supportsInternalTxs } from '../node-check.js';
import type { PreparedBlock } from '../prepare.js';
import { createIndexedHeights } from './indexed-heights.js';
import { createInternalTxExtension } from './internal-txs.js';
import { createRichListExtension } from './rich-list.js';

/**
 * The extensions a config turns on (EVM internal txs, the EVM rich list), each with its own progress
 * height, fed by the block indexer's written batches.
 */

export interface Extension {
  name: string;
  /** Work that must happen before any block is written (the rich-list snapshot). */
  initialize?(): Promise<void>;
  run(): Promise<void>;
}

export interface Extensions {
  list: Extension[];
  /** Hands a written batch to every extension. */
  written(batch: readonly PreparedBlock[]): void;
  /** Whether prepared blocks must carry their ERC20 balance deltas, and their internal txs. */
  needsBalanceDeltas: boolean;
  needsInternalTxs: boolean;
  /** Progress heights, for the progress line and the status. */
  heights: { internalTx: number | null; richList: number | null };
}

export interface ExtensionsOptions {
  config: IndexerConfig;
  clients: NodeClients;
  store: BlockWriter;
  stored: StoreProgress;
  /** First height the block indexer writes in this run. */
  from: number;
  logger: Logger;
  metrics: IndexerMetrics;
  signal: AbortSignal;
}

const EXTENSION_CONCURRENCY = 8;

export async function createExtensions(options: ExtensionsOptions): Promise<Extensions> {
  const { config, clients, store, stored, from, logger, metrics, signal } = options;
  const list: Extension[] = [];
  const feeds: Array<(batch: readonly PreparedBlock[]) => void> = [];
  const heights: Extensions['heights'] = { internalTx: null, richList: null };
  const jsonRpc = config.vm === 'evm' ? clients.jsonRpc : undefined;
  const common = {
    lowestHeight: async (s: AbortSignal) => (await clients.comet.status(s)).earliestHeight,
    maxConcurrency: Math.min(EXTENSION_CONCURRENCY, config.maxConcurrentRequests),
    pollIntervalMs: config.pollIntervalMs,
    batchSize: config.batchSize,
    signal,
    isRetryableWrite: isRetryable,
  };
  const progressOf =
    (name: 'internal_tx' | 'rich_list', key: keyof Extensions['heights']) => (height: number) => {
      heights[key] = height;
      metrics.extensionHeight.set({ extension: name }, height);
    };

  if (jsonRpc && config.internalTx) {
    const { appVersion } = await clients.rest.nodeInfo(signal);
    if (supportsInternalTxs(appVersion)) {
      // Frames of the heights the extension has not written yet; past the cap it fetches them itself.
      const indexed = createIndexedHeights(stored.height, (b) => b.internalTxs, 2000);
      feeds.push((batch) => indexed.record(batch));
      heights.internalTx = stored.internalTxHeight;
      const extension = createInternalTxExtension({
        ...common,
        jsonRpc,
        store,
        indexed,
        // On an empty database the traces start where the blocks do.
        from: stored.height === 0 ? from - 1 : stored.internalTxHeight,
        logger: logger.child({ extension: 'internal-tx' }),
        onWritten: progressOf('internal_tx', 'internalTx'),
      });
      list.push({ name: 'internal-tx', run: extension.run });
    } else {
      logger.warn(
        { appVersion },
        'the node is older than v1.1.0 and cannot trace blocks; internal txs are off',
      );
    }
  }

  if (jsonRpc && config.richList) {
    const indexed = createIndexedHeights<BalanceDelta[]>(stored.height, (b) => b.balanceDeltas ?? []);
    feeds.push((batch) => indexed.record(batch));
    heights.richList = stored.richListHeight;
    const extension = createRichListExtension({
      ...common,
      comet: clients.comet,
      rest: clients.rest,
      jsonRpc,
      store,
      indexed,
      from: stored.richListHeight,
      snapshotHeight: from,
      logger: logger.child({ extension: 'rich-list' }),
      onWritten: progressOf('rich_list', 'richList'),
    });
    list.push({ name: 'rich-list', initialize: extension.initialize, run: extension.run });
  }

  return {
    list,
    written: (batch) => {
      for (const feed of feeds) feed(batch);
    },
    needsBalanceDeltas: heights.richList !== null,
    needsInternalTxs: heights.internalTx !== null,
    heights,
  };
}

/**
 * Runs the extensions alongside the block indexer. One that fails stops alone, with one error line;
 * blocks go on being indexed.
 */
export async function startExtensions(
  extensions: Extensions,
  logger: Logger,
  signal: AbortSignal,
): Promise<Array<Promise<void>>> {
  const failed = (name: string) => (err: unknown) => {
    if (!signal.aborted) logger.error({ extension: name, err: errorMessage(err) }, 'extension stopped');
  };
  const runnable: Extension[] = [];
  for (const extension of extensions.list) {
    try {
      await extension.initialize?.();
      runnable.push(extension);
    } catch (err) {
      failed(extension.name)(err);
    }
  }
  return runnable.map((extension) => extension.run().catch(failed(extension.name)));
}
