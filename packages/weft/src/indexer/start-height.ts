/**
 * Where indexing starts (rollytics `computeStartHeight`): right after what the database holds, or at
 * START_HEIGHT when that is further on. START_HEIGHT only ever moves the start forward, never back over
 * indexed heights, and never past the chain head.
 */
export function computeStartHeight(options: {
  /** Highest indexed height, 0 on an empty database. */
  indexed: number;
  /** The node's head. */
  head: number;
  /** START_HEIGHT; 0 = unset. */
  startHeight: number;
}): number {
  const dbNext = options.indexed + 1;
  if (options.startHeight <= 0) return dbNext;
  return Math.max(dbNext, Math.min(options.head, options.startHeight));
}
