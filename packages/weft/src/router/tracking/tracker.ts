import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage } from '../../common/errors.js';
import { createAdvancing } from './advancing.js';
import { createLookupQueue } from './catch-up.js';
import { type ChainReader, createChainReader, normalizeHash } from './chain-reader.js';
import {
  ChainNotSupportedError,
  InvalidTxHashError,
  TooManyUnseenError,
  TxNotTrackedError,
} from './errors.js';
import { chainDirectory } from './evidence.js';
import { type ChainFollower, startChainFollower } from './follower.js';
import { HeldTransfers } from './held.js';
import { idleVerdict } from './idle.js';
import { createLeases } from './leases.js';
import { outcomeOf } from './state.js';
import { explorerLinks, recentJson, statusJson } from './status-json.js';
import { type TrackerOptions, trackerSettings } from './tracker-options.js';
import { createTransferStore } from './transfer-store.js';
import type { RecentQuery } from './types.js';

export type { TrackerOptions } from './tracker-options.js';

/**
 * The tracker: the wiring of its parts. A follower per chain reads each block once and hands it to
 * `advancing.ts`, which applies it (`apply-evidence.ts`) to the transfers this router holds in memory
 * (`held.ts`) and saves what they learnt under their leases (`leases.ts`, `transfer-store.ts`). A claim
 * round every third of the lease renews and claims leases and gives up on idle transfers (`idle.ts`).
 */

/** Rows deleted per round of the periodic work. */
const SWEEP_BATCH = 1_000;

export interface Tracker {
  readonly owner: string;
  /** `POST /v2/tx/track`: durable and idempotent. */
  track(chainId: string, txHash: string): Promise<{ tx_hash: string; explorer_link: string }>;
  /** `GET /v2/tx/status`. */
  status(chainId: string, txHash: string): Promise<ReturnType<typeof statusJson>>;
  /** `GET /v2/tx/recent` (a weft extension): the newest tracked transfers, in the state `status` answers. */
  recent(query: RecentQuery): Promise<{ transfers: ReturnType<typeof recentJson>[] }>;
  /** Transfers this process holds a lease on. */
  held(): number;
  /** Stops following; `keepLeases` leaves the leases to lapse as a killed process would. */
  stop(options?: { keepLeases?: boolean }): Promise<void>;
}

export const validTxHash = (hash: string) => /^(0x)?[0-9a-fA-F]{64}$/.test(hash);

export async function startTracker(options: TrackerOptions): Promise<Tracker> {
  const settings = trackerSettings(options);
  const { db, chains, logger, owner, leaseMs, abandonAfterMs, unseenAfterMs, maxHeld, maxUnseen } = settings;
  const store = createTransferStore(db);
  const directory = chainDirectory(chains);
  const link = explorerLinks(chains);
  const readers = new Map<string, ChainReader>(
    chains.map((c) => [c.chainId, createChainReader(c, { timeoutMs: settings.timeoutMs })]),
  );
  const followers = new Map<string, ChainFollower>();
  const lookups = createLookupQueue(settings.lookupConcurrency);
  const held = new HeldTransfers();
  const leases = createLeases({ store, owner, leaseMs, maxHeld, logger });
  let stopped = false;
  const advancing = createAdvancing({
    held,
    store,
    owner,
    chains: directory,
    readers,
    followers,
    lookups,
    logger,
    stopped: () => stopped,
  });

  for (const reader of readers.values()) {
    followers.set(
      reader.chain.chainId,
      startChainFollower({
        reader,
        onBlock: (block) => advancing.onBlock(reader.chain.chainId, block),
        pollMs: settings.pollMs,
        retainBlocks: settings.retainBlocks,
        logger,
      }),
    );
  }
  // Each follower's first look at its chain, so a transfer tracked at once finds what is already there;
  // a chain whose node is down does not hold the others (its follower catches up when it answers).
  await Promise.race([
    Promise.all([...followers.values()].map((f) => f.ready())),
    sleep(settings.readyWaitMs),
  ]);

  /** A chain's latest block while it advances; one silent for the abandon window has no clock. */
  const clockOf = (chainId: string) => {
    const clock = followers.get(chainId)?.clock();
    return clock && Date.now() - clock.advancedAtMs < abandonAfterMs ? clock : undefined;
  };

  let claiming: Promise<void> = Promise.resolve();
  const claimRound = async () => {
    const { lost, taken } = await leases.round(held);
    for (const id of lost) {
      const entry = held.get(id);
      if (entry) held.drop(entry);
    }
    for (const transfer of taken) advancing.take(transfer);
    const now = Date.now();
    for (const entry of held.values()) {
      const verdict = idleVerdict(entry.transfer, entry, now, settings, clockOf);
      if (verdict.kind === 'waiting') entry.waitedAtMs = now;
      if (verdict.kind === 'abandon') advancing.abandon(entry, verdict.reason);
      else if (!entry.transfer.progress.source) advancing.discover(entry);
      else if (entry.retry) advancing.retry(entry);
    }
    const swept = await store.deleteUnseenAbandoned(settings.unseenRetentionMs, SWEEP_BATCH);
    if (swept > 0) logger.debug({ swept }, 'tracking: deleted abandoned transfers never seen on chain');
  };
  // Rounds run one after another; asks made while one waits to start join it (a burst of tracks is one round).
  let queued: Promise<void> | undefined;
  const claimNow = () => {
    // A track that was in flight when the tracker stopped starts no round: the store may be closing.
    if (stopped) return claiming;
    if (queued) return queued;
    const round = claiming.then(() => {
      queued = undefined;
      return claimRound();
    });
    claiming = round.catch((err) => {
      logger.warn({ err: errorMessage(err) }, 'tracking: claiming transfers failed; retrying');
    });
    queued = claiming;
    return claiming;
  };
  await claimNow();
  const claimTimer = setInterval(() => void claimNow(), Math.max(50, Math.floor(leaseMs / 3)));

  const requireChain = (chainId: string) => {
    if (!readers.has(chainId)) throw new ChainNotSupportedError(chainId);
  };
  // A transfer this process holds is written only by it while its lease holds: what it saved last is what
  // the store has, and status answers from it. Otherwise (another router holds it, or it ended) the store does.
  const fresh = (chainId: string, hash: string) => {
    const mine = held.bySource(chainId, hash);
    return mine && leases.valid(Date.now()) ? mine : undefined;
  };

  return {
    owner,
    async track(chainId, txHash) {
      requireChain(chainId);
      if (!validTxHash(txHash)) throw new InvalidTxHashError(txHash);
      const hash = normalizeHash(txHash);
      // Tracking a tracked tx always answers; a new one only while the unseen ones stay under the cap.
      let known = await store.find(chainId, hash);
      if (known?.state === 'STATE_ABANDONED' && !(await store.revive(known.id))) known = undefined;
      if (!known) {
        if ((await store.countUnseen(maxUnseen)) >= maxUnseen)
          throw new TooManyUnseenError(maxUnseen, Math.ceil(Math.min(unseenAfterMs, 60_000) / 1000));
        await store.track(chainId, hash);
      }
      if (!known || known.state === 'STATE_ABANDONED') void claimNow();
      return { tx_hash: txHash, explorer_link: link(chainId, txHash) };
    },
    async status(chainId, txHash) {
      if (!validTxHash(txHash)) throw new TxNotTrackedError(chainId, txHash);
      const hash = normalizeHash(txHash);
      const mine = fresh(chainId, hash);
      const progress = mine?.transfer.progress ?? (await store.get(chainId, hash))?.progress;
      if (!progress) throw new TxNotTrackedError(chainId, txHash);
      return statusJson(progress, outcomeOf(progress), link, clockOf);
    },
    async recent(query) {
      if (query.chainId !== undefined) requireChain(query.chainId);
      const rows = await store.recent(query);
      const transfers = rows.map((t) =>
        recentJson(t, fresh(t.chainId, t.txHash)?.transfer.progress ?? t.progress),
      );
      // The filter reads the stored state; an answer differing from it (docs/router.md) is left out.
      return { transfers: query.state ? transfers.filter((t) => t.state === query.state) : transfers };
    },
    held: () => held.size,
    async stop({ keepLeases = false } = {}) {
      stopped = true;
      clearInterval(claimTimer);
      await claiming;
      await lookups.drain();
      await Promise.all([...followers.values()].map((f) => f.stop()));
      await Promise.all([...held.values()].map((e) => e.queue));
      if (!keepLeases) await leases.release().catch(() => undefined);
      await Promise.all([...readers.values()].map((r) => r.close()));
    },
  };
}
