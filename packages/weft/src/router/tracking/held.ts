import { keyOfEvent } from './chain-events.js';
import type { TxEvents } from './chain-reader.js';
import { waitKeys } from './evidence.js';
import type { IdleClock } from './idle.js';
import type { TrackedTransfer } from './types.js';

/**
 * The transfers one router holds a lease on, in memory, with the two indexes a block is matched by: the
 * keys each transfer's hops wait on (`evidence.ts` `waitKeys`) and its source tx `(chain id, hash)`.
 *
 * Invariants, kept by every method and tested in `held.test.ts`:
 * - a transfer is held once: `get(id)` and `bySource(chain, hash)` name the same entry, or none;
 * - `awaiting(key)` holds exactly the held entries whose progress waits on `key` (`entry.keys`), and a key
 *   nobody waits on has no set left behind;
 * - a dropped entry is in no index and has `dropped` set, so work queued for it sees it and does nothing.
 */

export interface HeldTransfer extends IdleClock {
  transfer: TrackedTransfer;
  /** The wait keys it is indexed by: those of `transfer.progress` (set by `HeldTransfers` alone). */
  keys: ReadonlySet<string>;
  /** The transfer's work, one piece after another (`serial` in `advancing.ts`). */
  queue: Promise<void>;
  dropped: boolean;
  /** Look-ups queued or running. */
  seeking: Set<string>;
  /** A look-up failed: the next claim round queues it again. */
  retry: boolean;
}

const sourceKey = (chainId: string, hash: string) => `${chainId}|${hash}`;

export class HeldTransfers {
  readonly #byId = new Map<string, HeldTransfer>();
  readonly #bySource = new Map<string, HeldTransfer>();
  readonly #byKey = new Map<string, Set<HeldTransfer>>();

  get size(): number {
    return this.#byId.size;
  }

  values(): IterableIterator<HeldTransfer> {
    return this.#byId.values();
  }

  keys(): IterableIterator<string> {
    return this.#byId.keys();
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  get(id: string): HeldTransfer | undefined {
    return this.#byId.get(id);
  }

  /** The held transfer of a source tx (hash normalised: lowercase hex without 0x). */
  bySource(chainId: string, hash: string): HeldTransfer | undefined {
    return this.#bySource.get(sourceKey(chainId, hash));
  }

  /** The held transfers whose hops wait on `key`. */
  awaiting(key: string): HeldTransfer[] {
    return [...(this.#byKey.get(key) ?? [])];
  }

  /** Holds a transfer just claimed or loaded; one held already stays as it is. */
  add(transfer: TrackedTransfer): HeldTransfer {
    const known = this.#byId.get(transfer.id);
    if (known) return known;
    const entry: HeldTransfer = {
      transfer,
      keys: new Set(),
      lastProgressMs: Date.parse(transfer.lastProgressAt),
      waitedAtMs: 0,
      queue: Promise.resolve(),
      dropped: false,
      seeking: new Set(),
      retry: false,
    };
    this.#byId.set(transfer.id, entry);
    this.#bySource.set(sourceKey(transfer.chainId, transfer.txHash), entry);
    this.#reindex(entry);
    return entry;
  }

  /** Replaces a held transfer by its saved successor; answers the wait keys it did not wait on before. */
  update(entry: HeldTransfer, transfer: TrackedTransfer): string[] {
    if (entry.dropped || transfer.id !== entry.transfer.id) return [];
    entry.transfer = transfer;
    return this.#reindex(entry);
  }

  /** Lets go of a transfer: it ended, its lease was lost, or this router stops following it. */
  drop(entry: HeldTransfer): void {
    if (this.#byId.get(entry.transfer.id) !== entry) return;
    entry.dropped = true;
    this.#byId.delete(entry.transfer.id);
    this.#bySource.delete(sourceKey(entry.transfer.chainId, entry.transfer.txHash));
    for (const key of entry.keys) this.#unindex(key, entry);
  }

  /**
   * The held transfers a block of `chainId` may teach something: those whose source tx it holds (not
   * seen before), and those waiting on a key one of its txs answers.
   */
  touchedBy(chainId: string, block: { hashes: readonly string[]; txs: readonly TxEvents[] }): HeldTransfer[] {
    const touched = new Set<HeldTransfer>();
    for (const hash of block.hashes) {
      const entry = this.bySource(chainId, hash);
      if (entry && !entry.transfer.progress.source) touched.add(entry);
    }
    for (const tx of block.txs) {
      for (const event of tx.events) {
        const key = keyOfEvent(event, chainId);
        for (const entry of (key && this.#byKey.get(key)) || []) touched.add(entry);
      }
    }
    return [...touched];
  }

  #reindex(entry: HeldTransfer): string[] {
    const keys = new Set(entry.transfer.progress.hops.flatMap(waitKeys));
    for (const key of entry.keys) if (!keys.has(key)) this.#unindex(key, entry);
    const added = [...keys].filter((k) => !entry.keys.has(k));
    for (const key of added) {
      const entries = this.#byKey.get(key) ?? new Set();
      entries.add(entry);
      this.#byKey.set(key, entries);
    }
    entry.keys = keys;
    return added;
  }

  #unindex(key: string, entry: HeldTransfer): void {
    const entries = this.#byKey.get(key);
    entries?.delete(entry);
    if (entries?.size === 0) this.#byKey.delete(key);
  }
}
