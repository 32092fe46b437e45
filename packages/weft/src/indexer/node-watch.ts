import { errorMessage } from '../common/errors.js';
import type { Logger } from '../common/logger.js';

/**
 * What the indexer tells about its node, once per change of state rather than once per retry: the node
 * stopped answering (only after a run of failures with no success, so scattered faults stay quiet), it is
 * behind the database, a height is pruned, or all is well again.
 */

export type NodeState = 'up' | 'down' | 'behind' | 'pruned';

export interface NodeWatch {
  readonly state: NodeState;
  succeeded(): void;
  troubled(err: unknown): void;
  behind(nodeHead: number, indexed: number): void;
  pruned(height: number, lowest: number | undefined): void;
  /** The node's head has reached the next height again (after `behind`). */
  caughtUp(): void;
  /** The node serves the heights it said were pruned (after `pruned`). */
  servedAgain(): void;
}

export interface NodeWatchOptions {
  logger: Logger;
  /** Failures in a row, with no success for `quietMs`, before the node counts as down. */
  failuresBeforeDown?: number;
  quietMs?: number;
  now?: () => number;
  onChange?(state: NodeState): void;
}

export function createNodeWatch(options: NodeWatchOptions): NodeWatch {
  const { logger } = options;
  const failuresBeforeDown = options.failuresBeforeDown ?? 5;
  const quietMs = options.quietMs ?? 3000;
  const now = options.now ?? Date.now;
  let state: NodeState = 'up';
  let failures = 0;
  let lastSuccess = now();
  let since = now();

  const enter = (next: NodeState) => {
    state = next;
    since = now();
    options.onChange?.(next);
  };

  return {
    get state() {
      return state;
    },
    succeeded() {
      failures = 0;
      lastSuccess = now();
      if (state === 'down') {
        logger.info({ downForMs: now() - since }, 'node answers again; resuming');
        enter('up');
      }
    },
    troubled(err) {
      failures += 1;
      logger.debug({ err: errorMessage(err) }, 'node request failed; retrying');
      if (state === 'up' && failures >= failuresBeforeDown && now() - lastSuccess >= quietMs) {
        logger.warn({ reason: errorMessage(err) }, 'node is not answering; waiting for it');
        enter('down');
      }
    },
    behind(nodeHead, indexed) {
      if (state === 'behind') return;
      logger.warn(
        { nodeHeight: nodeHead, indexedHeight: indexed },
        `node is behind the database (node at ${nodeHead}, database at ${indexed}); waiting for it to catch up`,
      );
      enter('behind');
    },
    pruned(height, lowest) {
      if (state === 'pruned') return;
      const where = lowest === undefined ? '' : ` (its lowest height is ${lowest})`;
      logger.error(
        { height, lowestHeight: lowest },
        `height ${height} is pruned on the node${where}: the indexer cannot go on from here. ` +
          'Point RPC_URL/REST_URL at an archive node, or start a new database with START_HEIGHT at or above the lowest height. ' +
          'Waiting (the height is checked again every minute).',
      );
      enter('pruned');
    },
    caughtUp() {
      if (state !== 'behind') return;
      logger.info({ behindForMs: now() - since }, 'node has caught up with the database; resuming');
      enter('up');
    },
    servedAgain() {
      if (state !== 'pruned') return;
      logger.info({ prunedForMs: now() - since }, 'node serves the pruned heights again; resuming');
      enter('up');
    },
  };
}
