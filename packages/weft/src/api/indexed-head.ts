import type { Db } from '../store/db.js';
import { indexedHeights } from '../store/read/status.js';

/**
 * The last block the indexer wrote, as this API process knows it: what the response cache measures
 * a cached list against, so that no answer is further behind a fresh read than the bound it allows.
 */
export interface IndexedHead {
  /** The store's indexed height, read at most `maxAgeMs` ago; undefined when the store does not answer. */
  height(): Promise<number | undefined>;
}

/** Longest a known indexed height is used before the store is asked again: well under a block. */
export const INDEXED_HEAD_MAX_AGE_MS = 50;

/**
 * Reads the indexed height at most once per `maxAgeMs`, whatever the request rate: concurrent callers
 * share one read. The read goes to the connection kept for `/status` (it costs one row), so it answers
 * while page reads fill the store gate. A failed read is not kept: the next caller asks again.
 */
export function createIndexedHead(db: Db, maxAgeMs = INDEXED_HEAD_MAX_AGE_MS): IndexedHead {
  let known: { at: number; height: number } | undefined;
  let inFlight: Promise<number | undefined> | undefined;
  return {
    async height() {
      if (known && Date.now() - known.at < maxAgeMs) return known.height;
      if (!inFlight) {
        const at = Date.now();
        inFlight = indexedHeights(db)
          .then(
            ({ height }) => {
              known = { at, height };
              return height;
            },
            () => undefined,
          )
          .finally(() => {
            inFlight = undefined;
          });
      }
      return inFlight;
    },
  };
}
