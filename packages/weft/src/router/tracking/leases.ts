import { errorMessage } from '../../common/errors.js';
import type { Logger } from '../../common/logger.js';
import type { TransferStore } from './transfer-store.js';
import type { TrackedTransfer } from './types.js';

/**
 * This router's leases on tracked transfers (the store's `owner` and `lease_until`). A round renews every
 * lease it holds, learns which it lost (another router claimed them after they lapsed), loads those it
 * holds but has not in memory (after a restart under the same owner), and claims more up to `maxHeld`:
 * unheld transfers, or those whose lease lapsed, which is how a transfer passes from a router that stopped
 * (`release`) or died (its leases lapse) to the next. A row whose progress does not validate is kept
 * leased, left as it is and logged once, so no router loops on it while this one lives.
 */

export interface LeaseRound {
  /** Held transfers whose lease another router has taken over: drop them. */
  lost: string[];
  /** Transfers to hold from now on: loaded or newly claimed. */
  taken: TrackedTransfer[];
}

/** The ids a router holds (a `Set`, or `HeldTransfers`). */
export interface HeldIds {
  has(id: string): boolean;
  keys(): Iterable<string>;
  readonly size: number;
}

export interface Leases {
  readonly owner: string;
  /** Renews, loads and claims; `holding` is the ids of the transfers this router has in memory. */
  round(holding: HeldIds): Promise<LeaseRound>;
  /** True while the leases of the last renewal still hold: what this router saved last is what the store has. */
  valid(nowMs: number): boolean;
  /** Gives every lease up, so other routers take them at once (a clean stop). */
  release(): Promise<void>;
}

export interface LeaseOptions {
  store: TransferStore;
  owner: string;
  leaseMs: number;
  maxHeld: number;
  logger: Logger;
}

export function createLeases(options: LeaseOptions): Leases {
  const { store, owner, leaseMs, maxHeld, logger } = options;
  /** When the last renewal began: its leases hold until `leaseMs` after it. */
  let renewedAt = Number.NEGATIVE_INFINITY;
  /** Rows held whose progress does not validate, by id. */
  const unreadable = new Set<string>();

  const park = (rows: readonly { id: string; error: Error }[]) => {
    for (const { id, error } of rows) {
      if (unreadable.has(id)) continue;
      unreadable.add(id);
      logger.warn(
        { id, err: errorMessage(error) },
        'tracking: a tracked transfer does not read; left as it is',
      );
    }
  };

  return {
    owner,
    async round(holding) {
      const renewing = Date.now();
      const kept = await store.renew(owner, leaseMs);
      renewedAt = renewing;
      for (const id of unreadable) if (!kept.has(id)) unreadable.delete(id);
      const lost = [...holding.keys()].filter((id) => !kept.has(id));
      // What the caller holds once it dropped the lost ones (a lost transfer may be claimed back at once).
      const holds = (id: string) => holding.has(id) && kept.has(id);
      const unloaded = [...kept].filter((id) => !holds(id) && !unreadable.has(id));
      const loaded = await store.load(unloaded);
      park(loaded.unreadable);
      const taken = loaded.transfers.filter((t) => !holds(t.id));
      const claimed = await store.claim(
        owner,
        leaseMs,
        maxHeld - (holding.size - lost.length + taken.length),
      );
      park(claimed.unreadable);
      // A claim takes no row this router renewed: none of them is among those loaded.
      for (const t of claimed.transfers) if (!holds(t.id)) taken.push(t);
      return { lost, taken };
    },
    valid: (nowMs) => nowMs < renewedAt + leaseMs,
    async release() {
      await store.release(owner);
    },
  };
}
