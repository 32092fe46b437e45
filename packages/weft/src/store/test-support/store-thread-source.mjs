// From the TypeScript source only (tests, development): a worker thread does not inherit the TypeScript
// loader, so register it, then run the store thread. Compiled, store-thread.ts starts
// store-thread-worker.js itself.
import { register } from 'tsx/esm/api';

register();
await import('../store-thread-worker.ts');
