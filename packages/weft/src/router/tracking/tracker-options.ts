import { randomUUID } from 'node:crypto';
import type { Logger } from '../../common/logger.js';
import type { Db } from '../../store/db.js';
import type { TrackedChain } from './types.js';

/** What `startTracker` takes, and the settings it runs with once the defaults are filled in. */

export interface TrackerOptions {
  /** The router's schema of the shared database (`migrateTracking` run on it). */
  db: Db;
  chains: readonly TrackedChain[];
  logger: Logger;
  /** This process's name in leases (default: a random id). */
  owner?: string;
  /** How long a claim holds a transfer; renewed every third of it (default 15 s). */
  leaseMs?: number;
  /** Follower poll interval (default 500 ms). */
  pollMs?: number;
  /** Blocks of transfer events each follower keeps in memory (default 600). */
  retainBlocks?: number;
  /**
   * A transfer without progress this long is abandoned (default 10 min, as Skip), unless it waits on
   * something that will happen (`idle.ts`).
   */
  abandonAfterMs?: number;
  /** A source tx not seen on its chain this long is abandoned (default 5 min, as Skip). */
  unseenAfterMs?: number;
  /** Node request timeout (default 10 s). */
  timeoutMs?: number;
  /** Most transfers one process holds (default 100,000). */
  maxHeld?: number;
  /** How long the start waits for the chains' first answers (default 2 s). */
  readyWaitMs?: number;
  /** Look-ups of evidence older than the followers' windows run at once at most (default 4). */
  lookupConcurrency?: number;
  /** Abandoned transfers whose source tx was never seen are deleted after this (default 1 h). */
  unseenRetentionMs?: number;
  /** Most transfers awaiting their source tx (not abandoned); `track` refuses new ones beyond (default 10,000). */
  maxUnseen?: number;
}

export const trackerSettings = (options: TrackerOptions) => ({
  ...options,
  owner: options.owner ?? `router-${randomUUID()}`,
  leaseMs: options.leaseMs ?? 15_000,
  pollMs: options.pollMs ?? 500,
  retainBlocks: options.retainBlocks ?? 600,
  abandonAfterMs: options.abandonAfterMs ?? 600_000,
  unseenAfterMs: options.unseenAfterMs ?? 300_000,
  timeoutMs: options.timeoutMs ?? 10_000,
  maxHeld: options.maxHeld ?? 100_000,
  readyWaitMs: options.readyWaitMs ?? 2000,
  lookupConcurrency: options.lookupConcurrency ?? 4,
  unseenRetentionMs: options.unseenRetentionMs ?? 3_600_000,
  maxUnseen: options.maxUnseen ?? 10_000,
});
