import type { CometClient } from '../chain/comet-client.js';
import {
  FutureHeightError,
  isNodeTrouble,
  NodeUnavailableError,
  PrunedHeightError,
} from '../chain/endpoints.js';
import type { JsonRpcClient } from '../chain/json-rpc-client.js';
import type { RestClient } from '../chain/rest-client.js';
import type { BlockBundle } from './bundle.js';
import type { PrepareContext } from './pipeline.js';

/** The node surfaces of one chain. `jsonRpc` only on EVM rollups. */
export interface NodeClients {
  comet: CometClient;
  rest: RestClient;
  jsonRpc?: JsonRpcClient;
}

/** A height's node documents before the decoder's metadata questions are answered. */
export type FetchedBlock = Omit<BlockBundle, 'meta'>;

/**
 * Fetches one height: CometBFT `/block` and `/block_results`, the REST txs of the block and (EVM) the
 * receipts, all at once. When several calls fail, the most telling error wins: a pruned height over a
 * refusal over node trouble over "not yet".
 */
export async function fetchBlock(
  clients: NodeClients,
  height: number,
  context: PrepareContext,
): Promise<FetchedBlock> {
  const { call } = context;
  const { comet, rest, jsonRpc } = clients;
  const settled = await Promise.allSettled([
    call((signal) => comet.block(height, signal)),
    call((signal) => comet.blockResults(height, signal)),
    call((signal) => rest.txsOfBlock(height, { signal })),
    jsonRpc ? call((signal) => jsonRpc.blockReceipts(height, signal)) : Promise.resolve(undefined),
  ] as const);
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failures.length > 0) throw mostTelling(failures);
  const [block, blockResults, restTxs, evmReceipts] = settled.map(
    (s) => (s as PromiseFulfilledResult<unknown>).value,
  ) as [
    FetchedBlock['block'],
    FetchedBlock['blockResults'],
    FetchedBlock['restTxs'],
    FetchedBlock['evmReceipts'],
  ];
  const rawCount = block.block.data.txs?.length ?? 0;
  if (restTxs.length !== rawCount) {
    // REST and RPC may sit on different nodes, one of them a little behind: ask again.
    throw new NodeUnavailableError(
      `height ${height}: REST gave ${restTxs.length} txs, the block has ${rawCount}`,
      'incomplete',
    );
  }
  return { height, block, blockResults, restTxs, ...(evmReceipts ? { evmReceipts } : {}) };
}

function rank(err: unknown): number {
  if (err instanceof PrunedHeightError) return 0;
  if (err instanceof FutureHeightError) return 3;
  if (isNodeTrouble(err)) return 2;
  return 1;
}

function mostTelling(errors: unknown[]): unknown {
  return errors.reduce((best, err) => (rank(err) < rank(best) ? err : best));
}
