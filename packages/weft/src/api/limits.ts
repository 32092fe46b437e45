/** Page sizes and depths of every list (`pagination.*`). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
/**
 * Deepest offset a page may ask for. An offset is a scan of that many rows on every request (and
 * on the shared store), while a key costs the same at any depth: deeper walks go by key.
 */
export const MAX_OFFSET = 100_000;
