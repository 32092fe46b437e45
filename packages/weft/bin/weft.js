#!/usr/bin/env -S node --max-semi-space-size=64
// The published entry point: the compiled CLI (`npm run build` writes dist/). Tests and development run
// the TypeScript source instead (src/cli/test-support/source-cli.ts).
// The flags on the first line are src/cli/node-flags.ts's (a test keeps them equal).
await import('../dist/cli/main.js');
