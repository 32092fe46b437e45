import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most test files wait on chains producing blocks more than they compute: two run side by side even on a
// two-core machine (vitest would run one there). A worker keeps its modules from one test file to the next
// (isolate: false): importing the code base anew for every file took a fifth of the run. Tests build what
// they use (stores, servers, devnets) and close it, and none mocks a module.

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
