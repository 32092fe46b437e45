import { Counter, Gauge, Histogram } from 'prom-client';
import { FutureHeightError, isNodeTrouble, NodeQueryError, PrunedHeightError } from '../chain/endpoints.js';
import type { Registry } from '../common/metrics.js';

/** The indexer's Prometheus figures: the same ones the progress line shows, plus errors and concurrency. */

export interface IndexerMetrics {
  height: Gauge;
  chainHeight: Gauge;
  blocks: Counter;
  txs: Counter;
  blocksPerSecond: Gauge;
  txsPerSecond: Gauge;
  etaSeconds: Gauge;
  fetchErrors: Counter<'kind'>;
  concurrency: Gauge;
  inFlight: Gauge;
  nodeUp: Gauge;
  writeSeconds: Histogram;
  extensionHeight: Gauge<'extension'>;
  extensionFailures: Counter<'extension'>;
  decodeDrops: Counter<'decoder' | 'reason'>;
}

export function createIndexerMetrics(registry: Registry): IndexerMetrics {
  const registers = [registry];
  return {
    height: new Gauge({ name: 'weft_indexer_height', help: 'highest indexed height', registers }),
    chainHeight: new Gauge({
      name: 'weft_indexer_chain_height',
      help: 'the node’s latest height',
      registers,
    }),
    blocks: new Counter({ name: 'weft_indexer_blocks_total', help: 'blocks written', registers }),
    txs: new Counter({ name: 'weft_indexer_txs_total', help: 'Cosmos txs written', registers }),
    blocksPerSecond: new Gauge({
      name: 'weft_indexer_blocks_per_second',
      help: 'blocks written per second (last 10 s)',
      registers,
    }),
    txsPerSecond: new Gauge({
      name: 'weft_indexer_txs_per_second',
      help: 'txs written per second (last 10 s)',
      registers,
    }),
    etaSeconds: new Gauge({
      name: 'weft_indexer_eta_seconds',
      help: 'estimated seconds until the head is reached (0 at the head)',
      registers,
    }),
    fetchErrors: new Counter({
      name: 'weft_indexer_fetch_errors_total',
      help: 'failed fetches of a height, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    concurrency: new Gauge({
      name: 'weft_indexer_concurrency_limit',
      help: 'heights the adaptive controller allows in flight',
      registers,
    }),
    inFlight: new Gauge({ name: 'weft_indexer_in_flight', help: 'heights being fetched', registers }),
    nodeUp: new Gauge({ name: 'weft_indexer_node_up', help: '1 while the node answers', registers }),
    writeSeconds: new Histogram({
      name: 'weft_indexer_write_seconds',
      help: 'duration of one batch write',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    extensionHeight: new Gauge({
      name: 'weft_indexer_extension_height',
      help: 'progress height of an extension',
      labelNames: ['extension'] as const,
      registers,
    }),
    extensionFailures: new Counter({
      name: 'weft_indexer_extension_failures_total',
      help: 'failures that stopped an extension until its next attempt',
      labelNames: ['extension'] as const,
      registers,
    }),
    decodeDrops: new Counter({
      name: 'weft_indexer_decode_dropped_events_total',
      help: 'events, attributes or logs a decoder left out because they do not read',
      labelNames: ['decoder', 'reason'] as const,
      registers,
    }),
  };
}

/** The label of a fetch error. */
export function errorKind(err: unknown): string {
  if (err instanceof FutureHeightError) return 'future_height';
  if (err instanceof PrunedHeightError) return 'pruned_height';
  if (isNodeTrouble(err)) return err.failure.replace('-', '_');
  if (err instanceof NodeQueryError) return 'refused';
  return 'other';
}
