import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Most test files wait on chains producing blocks more than they compute: two run side by side even on a
// two-core machine (vitest would run one there). A worker keeps its modules from one test file to the next
// (isolate: false): importing the code base anew for every file took a fifth of the run. Tests build what
// they use (stores, servers, devnets) and close it, and none mocks a module.
//
// Tests run the TypeScript source: `weft/…` and `weft-devnet/…` resolve to the packages' src/ as the
// `weft-source` export condition does for node (the compiled dist/ is what the pack test runs).

const source = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^weft\/(.*)\.js$/, replacement: `${source('weft')}$1.ts` },
      { find: /^weft-devnet\/(.*)\.js$/, replacement: `${source('devnet')}$1.ts` },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
