import { isRetryable } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import type { BalanceDelta } from '../../store/records.js';
import type { BlockWriter, StoreProgress } from '../../store/writer.js';
import type { IndexerConfig } from '../config.js';
import type { DropReporter } from '../decode/index.js';
import type { NodeClients } from '../fetch.js';
import type { IndexerMetrics } from '../metrics.js';
import { supportsInternalTxs } from '../node-check.js';
import type { PreparedBlock } from '../prepare.js';
import { type BackoffOptions, exponentialBackoff, withRetry } from '../retry.js';
import { createIndexedHeights } from './indexed-heights.js';
import { createInternalTxExtension } from './internal-txs.js';
import { createRichListExtension } from './rich-list.js';
import { type SupervisedWork, type Supervisor, superviseExtension } from './supervise.js';

/**
 * The extensions a config turns on (EVM internal txs, the EVM rich list), each with its own progress
 * height, fed by the block indexer's written batches. Each runs supervised: a failure stops it for a
 * pause, not for good (see supervise.ts).
 */

export interface Extension {
  name: string;
  /** Work that must happen before any block is written (the rich-list snapshot). Never rejects. */
  initialize(): Promise<void>;
  /** Runs until the abort, through failures. Never rejects. */
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
  drops?: DropReporter;
  /** The pause after a failure (tests shorten it). */
  backoff?: BackoffOptions;
}

const EXTENSION_CONCURRENCY = 8;

type ExtensionKey = 'internal_tx' | 'rich_list';

export async function createExtensions(options: ExtensionsOptions): Promise<Extensions> {
  const { config, clients, store, stored, from, logger, metrics, signal, drops } = options;
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
  /** The extension under its supervisor, and what it calls when it has written up to a height. */
  const supervised = (
    name: string,
    label: ExtensionKey,
    key: keyof Extensions['heights'],
    build: (onWritten: (height: number) => void, child: Logger) => SupervisedWork,
  ) => {
    const child = logger.child({ extension: name });
    let supervisor: Supervisor | undefined;
    const work = build((height) => {
      heights[key] = height;
      metrics.extensionHeight.set({ extension: label }, height);
      supervisor?.written(height);
    }, child);
    supervisor = superviseExtension(work, {
      label,
      logger: child,
      failures: metrics.extensionFailures,
      signal,
      ...(options.backoff ? { backoff: options.backoff } : {}),
    });
    // Shows in the metrics from the start, at 0, so a rate over it has a base.
    metrics.extensionFailures.inc({ extension: label }, 0);
    list.push({ name, initialize: supervisor.initialize, run: supervisor.run });
  };

  if (jsonRpc && config.internalTx) {
    // A node that fails now and then must not stop the start: the version is asked until it answers.
    const { appVersion } = await withRetry((s) => clients.rest.nodeInfo(s), {
      signal,
      backoffMs: exponentialBackoff({ baseMs: 250, maxMs: 5000 }),
    });
    if (supportsInternalTxs(appVersion)) {
      // Frames of the heights the extension has not written yet; past the cap it fetches them itself.
      const indexed = createIndexedHeights(stored.height, (b) => b.internalTxs, 2000);
      feeds.push((batch) => indexed.record(batch));
      heights.internalTx = stored.internalTxHeight;
      supervised('internal-tx', 'internal_tx', 'internalTx', (onWritten, child) =>
        createInternalTxExtension({
          ...common,
          jsonRpc,
          store,
          indexed,
          // On an empty database the traces start where the blocks do.
          from: stored.height === 0 ? from - 1 : stored.internalTxHeight,
          logger: child,
          onWritten,
          ...(drops ? { drops } : {}),
        }),
      );
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
    supervised('rich-list', 'rich_list', 'richList', (onWritten, child) =>
      createRichListExtension({
        ...common,
        comet: clients.comet,
        rest: clients.rest,
        jsonRpc,
        store,
        indexed,
        from: stored.richListHeight,
        snapshotHeight: from,
        logger: child,
        onWritten,
        ...(drops ? { drops } : {}),
      }),
    );
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
 * Runs the extensions alongside the block indexer, each through its failures; blocks go on being
 * indexed meanwhile. Resolves once every `initialize` is done (before the first block is written); a
 * snapshot that failed there is taken by the extension's next attempt, at the same height.
 */
export async function startExtensions(extensions: Extensions): Promise<Array<Promise<void>>> {
  for (const extension of extensions.list) await extension.initialize();
  return extensions.list.map((extension) => extension.run());
}
