import { createRequire } from 'node:module';

/**
 * A CommonJS package loaded by its first use, not at start: a function that requires `specifier`
 * (resolved from `from`, the calling module's `import.meta.url`) on its first call and then returns the
 * same module; `T` is the package's type. For packages that take a noticeable share of a start to load
 * and are needed only by something that may never happen, or happens after the start.
 */
export function lazyRequire<T>(specifier: string, from: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= createRequire(from)(specifier) as T;
    return loaded;
  };
}
