#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so the published bin and `npm start` share one entry point.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
