import type { Db } from '../store/db.js';
import { indexedHeights } from '../store/read/status.js';

/**
 * The last block the indexer wrote, as this API process knows it: what the response cache measures
 * a cached list against, so that no answer is further behind a fresh read than the bound it allows.
 */
export interface IndexedHead {
  /** The store's indexed height, read at most `maxAgeMs` ago; undefined when the store does not answer. */
  height(): Promise<number | undefined>;
  /**
   * The indexed height from a read that began at or after `at` (`performance.now()`): at least the
   * store's height at that moment. Callers arriving while such a read runs share it.
   */
  heightAfter(at: number): Promise<number | undefined>;
}

/** Longest a known indexed height is used before the store is asked again: well under a block. */
export const INDEXED_HEAD_MAX_AGE_MS = 50;

/**
 * Reads the indexed height at most once per `maxAgeMs`, whatever the request rate: concurrent callers
 * share one read. The read goes to the connection kept for `/status` (it costs one row), so it answers
 * while page reads fill the store gate. A failed read is not kept: the next caller asks again.
 */
export function createIndexedHead(db: Db, maxAgeMs = INDEXED_HEAD_MAX_AGE_MS): IndexedHead {
  // `at`: when the read began (performance.now()).
  let known: { at: number; height: number } | undefined;
  let inFlight: { at: number; height: Promise<number | undefined> } | undefined;
  const read = () => {
    const at = performance.now();
    const height = indexedHeights(db)
      .then(
        ({ height }) => {
          if (!known || at > known.at) known = { at, height };
          return height;
        },
        () => undefined,
      )
      .finally(() => {
        if (inFlight?.at === at) inFlight = undefined;
      });
    inFlight = { at, height };
    return height;
  };
  const head: IndexedHead = {
    async height() {
      if (known && performance.now() - known.at < maxAgeMs) return known.height;
      return inFlight ? inFlight.height : read();
    },
    async heightAfter(at) {
      if (known && known.at >= at) return known.height;
      if (inFlight && inFlight.at >= at) return inFlight.height;
      // One read at a time: the one running began too early, so the next begins once it ends.
      if (inFlight) await inFlight.height;
      if (known && known.at >= at) return known.height;
      return inFlight && inFlight.at >= at ? inFlight.height : read();
    },
  };
  return head;
}
