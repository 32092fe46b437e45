/**
 * Maps `items` with at most `limit` calls of `fn` in flight; the results keep the items' order. A call
 * that rejects rejects the whole (callers that want every answer catch inside `fn`).
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}

/** Thrown by `withTimeout` when the work did not settle in time. */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** `work`, or a TimeoutError with `message` once `ms` have passed (the work itself is not stopped). */
export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(message)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
