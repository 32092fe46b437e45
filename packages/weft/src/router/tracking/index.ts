export { trackedChain } from './chains.js';
export {
  ChainNotSupportedError,
  InvalidTxHashError,
  TooManyUnseenError,
  TrackedProgressInvalidError,
  TxNotTrackedError,
} from './errors.js';
export { trackingRoutes } from './routes.js';
export { startTracker, type Tracker, type TrackerOptions } from './tracker.js';
export { createTransferStore, migrateTracking, ROUTER_SCHEMA } from './transfer-store.js';
export type { TrackedChain, TransactionState } from './types.js';
