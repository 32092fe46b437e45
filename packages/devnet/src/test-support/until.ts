/**
 * Polls `probe` every 100 ms until it gives a value (not undefined or false); fails after `ms`. A probe
 * that throws fails at once, unless `retryErrors`: then an error counts as no value yet (a server still
 * starting), and the timeout names the last one.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 30_000,
  options: { retryErrors?: boolean } = {},
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    let value: T | undefined | false;
    try {
      value = await probe();
    } catch (err) {
      if (!options.retryErrors) throw err;
      last = err;
    }
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}${last === undefined ? '' : ` (last error: ${String(last)})`}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
