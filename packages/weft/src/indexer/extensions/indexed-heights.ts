import type { PreparedBlock } from '../prepare.js';

/**
 * What an extension learns from the block indexer: how far it has written, and a small per-height note
 * taken from each written block (so the extension need not fetch it again). Notes of heights written
 * before a restart are gone; the extension then finds out for itself. The notes are capped, so an
 * extension that lags far behind costs bounded memory.
 */
export interface IndexedHeights<T> {
  /** Highest height the block indexer has written. */
  height(): number;
  record(batch: readonly PreparedBlock[]): void;
  /** The note of a height, if it is still kept. */
  note(height: number): T | undefined;
  forget(height: number): void;
}

export function createIndexedHeights<T>(
  initialHeight: number,
  noteOf: (block: PreparedBlock) => T,
  maxNotes = 20_000,
): IndexedHeights<T> {
  let height = initialHeight;
  const notes = new Map<number, T>();
  return {
    height: () => height,
    record(batch) {
      for (const block of batch) {
        if (notes.size < maxNotes) notes.set(block.height, noteOf(block));
        if (block.height > height) height = block.height;
      }
    },
    note: (h) => notes.get(h),
    forget(h) {
      notes.delete(h);
    },
  };
}
