import { createRequire } from 'node:module';

/**
 * A CommonJS package loaded by its first use, not at start: `lazyRequire<typeof import('pkg')>('pkg',
 * import.meta.url)` returns a function that requires it (resolved from `from`, a module's URL) on its
 * first call and then returns the same module. For packages that take a noticeable share of a start to
 * load and are needed only by something that may never happen, or happens after the start.
 */
export function lazyRequire<T>(specifier: string, from: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= createRequire(from)(specifier) as T;
    return loaded;
  };
}
