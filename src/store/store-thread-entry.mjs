// A worker thread does not inherit the TypeScript loader: register it as bin/weft.js does, then run
// the store thread (store-thread-worker.ts).
import { register } from 'tsx/esm/api';

register();
await import('./store-thread-worker.ts');
