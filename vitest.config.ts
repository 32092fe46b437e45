import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most test files wait on chains producing blocks more than they compute: two run side by side even on a
// two-core machine (vitest would run one there).

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
