import { errorMessage, isRetryable } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import { applyEvidence, applySourceTx, type BlockEvidence } from './apply-evidence.js';
import { type LookupQueue, lookupsToRun, runLookups, settleCovered } from './catch-up.js';
import type { ChainReader } from './chain-reader.js';
import { applyTx, type ChainDirectory } from './evidence.js';
import type { ChainFollower } from './follower.js';
import type { HeldTransfer, HeldTransfers } from './held.js';
import { outcomeOf, stepOf } from './state.js';
import type { TransferStore } from './transfer-store.js';
import { TERMINAL_STATES, type TrackedTransfer, type TransferProgress } from './types.js';

/**
 * The work on the transfers a router holds: each block its followers read goes through `applyEvidence`
 * for the held transfers it touches, and what that answers is carried out here (a source tx read, new
 * progress saved under the lease, the look-ups of evidence older than the followers' windows). One
 * transfer's work runs one piece after another (`serial`), so it is never advanced by two blocks at once.
 */

export interface AdvancingOptions {
  held: HeldTransfers;
  store: TransferStore;
  owner: string;
  chains: ChainDirectory;
  readers: ReadonlyMap<string, ChainReader>;
  /** Filled once the followers start (they call `onBlock`). */
  followers: ReadonlyMap<string, ChainFollower>;
  lookups: LookupQueue;
  logger: Logger;
  stopped(): boolean;
}

export interface Advancing {
  /** Holds a transfer just claimed or loaded, and resumes it from what it waits on. */
  take(transfer: TrackedTransfer): void;
  /** A block a follower read, matched against the held transfers. */
  onBlock(chainId: string, block: Omit<BlockEvidence, 'chainId'>): Promise<void>;
  /** Queues giving up on a transfer, with the reason its status gives. */
  abandon(entry: HeldTransfer, reason: string): void;
  /** Queues another look for a source tx not seen yet. */
  discover(entry: HeldTransfer): void;
  /** Queues the look-ups that failed and may succeed now. */
  retry(entry: HeldTransfer): void;
}

export function createAdvancing(options: AdvancingOptions): Advancing {
  const { held, store, owner, chains, readers, followers, lookups, logger } = options;

  /** Runs `fn` after the transfer's previous work, unless it was dropped or the tracker stops. */
  const serial = (entry: HeldTransfer, fn: () => Promise<void>) => {
    entry.queue = entry.queue.then(async () => {
      if (entry.dropped || options.stopped()) return;
      try {
        await fn();
      } catch (err) {
        logger.warn(
          { id: entry.transfer.id, err: errorMessage(err) },
          'tracking: advancing a transfer failed',
        );
      }
    });
    return entry.queue;
  };

  /**
   * Saves new progress under the lease; losing the lease hands the transfer to its new holder. An advance
   * goes to the audit; a note alone (the look-ups done) does not.
   */
  const save = async (
    entry: HeldTransfer,
    progress: TransferProgress,
    progressed: boolean,
    advance = true,
  ) => {
    settleCovered(progress, chains, (chainId, since) => followers.get(chainId)?.covers(since) ?? false);
    const state = outcomeOf(progress).state;
    const { transfer } = entry;
    const ok = await store.advance(
      owner,
      { id: transfer.id, state, progress },
      advance ? stepOf(progress, state) : undefined,
      progressed,
    );
    if (!ok) return held.drop(entry);
    const added = held.update(entry, { ...transfer, state, progress, version: transfer.version + 1 });
    if (progressed) entry.lastProgressMs = Date.now();
    if (TERMINAL_STATES.has(state)) return held.drop(entry);
    // Evidence of a new hop (a forward) may already sit in a follower's recent blocks, or be older.
    await recall(entry, added);
    if (!entry.dropped) seek(entry);
  };

  /** Applies evidence to the transfer and carries out what `applyEvidence` answers. */
  const learn = async (entry: HeldTransfer, evidence: BlockEvidence) => {
    const { updated, effects } = applyEvidence([entry.transfer], evidence, chains);
    for (const effect of effects) if (effect.kind === 'read-source') await discover(entry);
    for (const transfer of updated) if (!entry.dropped) await save(entry, transfer.progress, true);
  };

  /**
   * What the followers' recent blocks hold for these keys: evidence read before the transfer waited on it
   * (its source tx found late, a forward's hop just added). One tx at a time, in the order the hops wait
   * (a packet's destination before its source), each new hop's keys recalled before the next tx: a
   * forward's ack on the middle chain, which also acknowledges the next hop, comes after that hop's receive.
   */
  const recall = async (entry: HeldTransfer, keys: Iterable<string>) => {
    for (const key of [...keys])
      for (const f of followers.values())
        for (const tx of [...f.recent(key)]) {
          if (entry.dropped) return;
          await learn(entry, { chainId: f.chainId, hashes: [], txs: [tx] });
        }
  };

  const discover = async (entry: HeldTransfer) => {
    if (entry.transfer.progress.source) return;
    const found = await readers.get(entry.transfer.chainId)!.sourceTx(entry.transfer.txHash);
    if (!found || entry.transfer.progress.source) return;
    const windows = Object.fromEntries([...followers.values()].map((f) => [f.chainId, f.windowStart()]));
    await save(entry, applySourceTx(entry.transfer.progress, found, chains, windows), true);
  };

  /** Queues, as one task, the look-ups of what the transfer waits on that were not done yet. */
  const seek = (entry: HeldTransfer) => {
    entry.retry = false;
    if (!entry.transfer.progress.source) return;
    const todo = lookupsToRun(entry.transfer.progress, chains, entry.seeking);
    if (todo.length === 0) return;
    for (const l of todo) entry.seeking.add(l.id);
    lookups.push(async () => {
      const { found, done } = await runLookups(todo, (l) => readers.get(l.chainId)!.search(l), {
        live: () => !entry.dropped && !options.stopped(),
        awaits: (key) => entry.keys.has(key),
        failed(lookup, err) {
          const retry = isRetryable(err);
          entry.retry ||= retry;
          logger[retry ? 'debug' : 'warn'](
            { id: entry.transfer.id, lookup: lookup.id, err: errorMessage(err) },
            retry
              ? 'tracking: look-up failed; retrying'
              : 'tracking: the node refuses a look-up; relying on the followers',
          );
          return retry;
        },
      });
      void serial(entry, async () => {
        for (const l of todo) entry.seeking.delete(l.id);
        const progress = structuredClone(entry.transfer.progress);
        let learnt = false;
        for (const tx of found) learnt = applyTx(progress, tx.tx, tx.events, chains) || learnt;
        const searched = new Set([...(progress.searched ?? []), ...done.map((l) => l.id)]);
        if (!learnt && searched.size === (progress.searched?.length ?? 0)) return;
        progress.searched = [...searched];
        await save(entry, progress, learnt, learnt);
      });
    });
  };

  return {
    take(transfer) {
      if (held.has(transfer.id)) return;
      const entry = held.add(transfer);
      for (const [chainId, height] of Object.entries(transfer.progress.watch))
        followers.get(chainId)?.rewind(height);
      void serial(entry, async () => {
        if (!entry.transfer.progress.source) return discover(entry);
        await recall(entry, entry.keys);
        if (!entry.dropped) seek(entry);
      });
    },
    async onBlock(chainId, block) {
      const evidence = { ...block, chainId };
      await Promise.all(held.touchedBy(chainId, block).map((e) => serial(e, () => learn(e, evidence))));
    },
    abandon(entry, reason) {
      void serial(entry, async () => {
        const progress = structuredClone(entry.transfer.progress);
        progress.abandoned = { reason };
        await save(entry, progress, false);
      });
    },
    discover(entry) {
      void serial(entry, () => discover(entry));
    },
    retry(entry) {
      void serial(entry, async () => seek(entry));
    },
  };
}
