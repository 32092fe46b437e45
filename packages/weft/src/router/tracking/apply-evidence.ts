import { keyOfEvent } from './chain-events.js';
import type { SourceTx, TxEvents } from './chain-reader.js';
import { applyTx, type ChainDirectory, hopsOfSourceTx, waitKeys } from './evidence.js';
import { outcomeOf } from './state.js';
import type { TrackedTransfer, TransferProgress } from './types.js';

/**
 * "Apply a block's evidence to the transfers in flight", as a function of its inputs: no clock, no node,
 * no store. The tracker (`advancing.ts`) feeds it each block its followers read and carries out what it
 * answers; the tests feed it recorded blocks. Inputs are never changed: an updated transfer is a copy.
 */

/** What the core reads of a transfer: its source tx, its evidence so far, and the state derived from it. */
export type InFlight = Pick<TrackedTransfer, 'id' | 'chainId' | 'txHash' | 'state' | 'progress'>;

/**
 * A block as the chain reader gives it (`BlockEvents` of `chainId`), or txs a follower retained from its
 * recent blocks (`hashes` then empty). Each tx names its own chain, which its events' keys depend on.
 */
export interface BlockEvidence {
  /** The chain whose block `hashes` lists. */
  chainId: string;
  /** Every tx hash of the block, normalised: a source tx awaited is found here. */
  hashes: readonly string[];
  /** The txs with transfer events. */
  txs: readonly TxEvents[];
}

/** What the driver does beyond saving the updated transfers. */
export type EvidenceEffect =
  /**
   * The transfer's source tx is in this block: read it whole (`ChainReader.sourceTx`, then
   * `applySourceTx`), since its result, log and asset are not among a block's transfer events.
   */
  { kind: 'read-source'; id: string; chainId: string; txHash: string };

export interface AppliedEvidence<T extends InFlight> {
  /** The transfers the block taught something, with their new progress and state. */
  updated: T[];
  effects: EvidenceEffect[];
}

/**
 * Matches a block against transfers in flight: a source tx awaited becomes a `read-source` effect, and
 * every tx with an event answering a key a transfer waited on when the pass began is applied to it, in
 * order (an ack applied before its packet's receive keeps both). A tx that adds a hop (a packet forwarded)
 * makes the transfer wait on new keys, which later or earlier txs of the same block may answer: the block
 * is applied again until it teaches nothing more. Applying a block twice changes nothing the second time.
 */
export function applyEvidence<T extends InFlight>(
  transfers: readonly T[],
  block: BlockEvidence,
  chains: ChainDirectory,
): AppliedEvidence<T> {
  const updated: T[] = [];
  const effects: EvidenceEffect[] = [];
  const hashes = new Set(block.hashes);
  const keysOfTxs = block.txs.map((tx) => new Set(tx.events.map((e) => keyOfEvent(e, tx.tx.chainId))));
  for (const transfer of transfers) {
    if (!transfer.progress.source) {
      if (transfer.chainId === block.chainId && hashes.has(transfer.txHash))
        effects.push({
          kind: 'read-source',
          id: transfer.id,
          chainId: transfer.chainId,
          txHash: transfer.txHash,
        });
      continue;
    }
    let progress: TransferProgress | undefined;
    for (let learnt = true; learnt; ) {
      learnt = false;
      const waits = new Set((progress ?? transfer.progress).hops.flatMap(waitKeys));
      for (const [i, tx] of block.txs.entries()) {
        if (![...keysOfTxs[i]!].some((key) => key !== undefined && waits.has(key))) continue;
        const next = progress ?? structuredClone(transfer.progress);
        if (!applyTx(next, tx.tx, tx.events, chains)) continue;
        progress = next;
        learnt = true;
      }
    }
    if (progress) updated.push({ ...transfer, progress, state: outcomeOf(progress).state });
  }
  return { updated, effects };
}

/**
 * A transfer's progress once its source tx is read: the tx, and when it succeeded the hops it starts.
 * `windowStarts` are the followers' lowest heights: a transfer taken over reads their windows again,
 * since what it held may not have been matched yet.
 */
export function applySourceTx(
  progress: TransferProgress,
  found: SourceTx,
  chains: ChainDirectory,
  windowStarts: Readonly<Record<string, number>>,
): TransferProgress {
  const next = structuredClone(progress);
  next.source = { ...found.tx, code: found.code, log: found.log || undefined, ...found.asset };
  if (found.code === 0) {
    next.hops = hopsOfSourceTx(found.tx, found.events, chains);
    for (const [chainId, start] of Object.entries(windowStarts)) next.watch[chainId] = Math.max(1, start);
  }
  return next;
}
