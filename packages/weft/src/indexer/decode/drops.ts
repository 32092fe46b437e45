/**
 * Where a decoder reports what it leaves out because it does not read (a log that is not JSON, an
 * address that is not one): a change of the node's format then shows up as a count and a warning
 * instead of rows that are silently missing. Called only on a drop, so well-formed data pays nothing.
 */
export interface DropReporter {
  /** `decoder` and `reason` are metric labels: short, fixed snake_case words. */
  drop(decoder: string, reason: string, detail?: Record<string, unknown>): void;
}

export const ignoreDrops: DropReporter = { drop() {} };

/** A reporter that adds the block's height to what it reports (one per block, not per drop). */
export function dropsAtHeight(drops: DropReporter | undefined, height: number): DropReporter {
  if (!drops || drops === ignoreDrops) return ignoreDrops;
  if (!Number.isFinite(height)) return drops;
  return { drop: (decoder, reason, detail) => drops.drop(decoder, reason, { height, ...detail }) };
}
