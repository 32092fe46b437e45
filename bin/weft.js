#!/usr/bin/env -S node --max-semi-space-size=64
// Runs the TypeScript CLI through tsx so the published bin and the npm scripts share one entry point.
// The flags on the first line are src/cli/node-flags.ts's (a test keeps them equal).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
