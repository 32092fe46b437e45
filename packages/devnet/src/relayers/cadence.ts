/**
 * How often a relayer looks for packets, and for the block of a tx it sent: a fifth of a block, at least
 * every 200 ms. With slow blocks a faster poll finds nothing new: the omnichain relayer's two reads of
 * each side every 200 ms, then its waits for its own txs every 50 ms, were most of the requests the dev
 * stack's nodes served with 2 s blocks.
 */
export const relayerPollMs = (blockTimeMs: number): number => Math.max(200, Math.round(blockTimeMs / 5));

/**
 * Asks `find` every `everyMs` until it answers, or throws `late` once `timeoutMs` have passed: a relayer's
 * wait for the block of a tx it sent.
 */
export async function pollFor<T>(
  find: () => Promise<T | undefined>,
  options: { everyMs: number; timeoutMs: number; late: () => Error },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw options.late();
    await new Promise((r) => setTimeout(r, options.everyMs));
  }
}
