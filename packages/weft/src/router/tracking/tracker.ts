import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage, isRetryable } from '../../common/errors.js';
import { createLookupQueue, lookupsToRun, runLookups, settleCovered } from './catch-up.js';
import { keyOfEvent } from './chain-events.js';
import {
  type BlockEvents,
  type ChainReader,
  createChainReader,
  normalizeHash,
  type TxEvents,
} from './chain-reader.js';
import {
  ChainNotSupportedError,
  InvalidTxHashError,
  TooManyUnseenError,
  TxNotTrackedError,
} from './errors.js';
import { applyTx, chainDirectory, hopsOfSourceTx, waitKeys } from './evidence.js';
import { type ChainFollower, startChainFollower } from './follower.js';
import { type IdleClock, idleVerdict } from './idle.js';
import { outcomeOf, stepOf } from './state.js';
import { explorerLinks, recentJson, statusJson } from './status-json.js';
import { type TrackerOptions, trackerSettings } from './tracker-options.js';
import { createTransferStore } from './transfer-store.js';
import { type RecentQuery, TERMINAL_STATES, type TrackedTransfer, type TransferProgress } from './types.js';

export type { TrackerOptions } from './tracker-options.js';

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

interface Held extends IdleClock {
  transfer: TrackedTransfer;
  keys: Set<string>;
  queue: Promise<void>;
  dropped: boolean;
  /** Look-ups queued or running. */
  seeking: Set<string>;
  /** A look-up failed: the next claim round queues it again. */
  retry: boolean;
}

export const validTxHash = (hash: string) => /^(0x)?[0-9a-fA-F]{64}$/.test(hash);

export async function startTracker(options: TrackerOptions): Promise<Tracker> {
  const settings = trackerSettings(options);
  const { db, chains, logger, owner, leaseMs, abandonAfterMs, unseenAfterMs, maxHeld, maxUnseen } = settings;
  const lookups = createLookupQueue(settings.lookupConcurrency);
  const store = createTransferStore(db);
  const directory = chainDirectory(chains);
  const link = explorerLinks(chains);
  const readers = new Map<string, ChainReader>(
    chains.map((c) => [c.chainId, createChainReader(c, { timeoutMs: settings.timeoutMs })]),
  );
  const held = new Map<string, Held>();
  const byKey = new Map<string, Set<string>>();
  const bySourceHash = new Map<string, string>();
  /** Held transfers by `chain id|source hash`: their status is answered from memory while the leases hold. */
  const heldBySource = new Map<string, Held>();
  const sourceKey = (chainId: string, hash: string) => `${chainId}|${hash}`;
  /** When the last renewal that kept this process's leases began: they hold until `leaseMs` after it. */
  let leasesFrom = 0;
  let stopped = false;

  const index = (entry: Held) => {
    const { progress } = entry.transfer;
    const keys = new Set(progress.hops.flatMap(waitKeys));
    for (const key of entry.keys) if (!keys.has(key)) byKey.get(key)?.delete(entry.transfer.id);
    const added = [...keys].filter((k) => !entry.keys.has(k));
    for (const key of added) {
      const ids = byKey.get(key) ?? new Set();
      ids.add(entry.transfer.id);
      byKey.set(key, ids);
    }
    entry.keys = keys;
    if (progress.source) bySourceHash.delete(entry.transfer.txHash);
    else bySourceHash.set(entry.transfer.txHash, entry.transfer.id);
    return added;
  };

  const drop = (entry: Held) => {
    entry.dropped = true;
    heldBySource.delete(sourceKey(entry.transfer.chainId, entry.transfer.txHash));
    for (const key of entry.keys) byKey.get(key)?.delete(entry.transfer.id);
    bySourceHash.delete(entry.transfer.txHash);
    held.delete(entry.transfer.id);
  };

  /** Runs `fn` after the transfer's previous work: one transfer is never advanced by two blocks at once. */
  const serial = (entry: Held, fn: () => Promise<void>) => {
    entry.queue = entry.queue.then(async () => {
      if (entry.dropped || stopped) return;
      try {
        await fn();
      } catch (err) {
        logger.warn(
          { id: entry.transfer.id, err: errorMessage(err) },
          'tracking: advancing a transfer failed',
        );
      }
    });
    return entry.queue;
  };

  /**
   * Saves new progress under the lease; losing the lease hands the transfer to its new holder. An advance
   * goes to the audit; a note alone (the look-ups done) does not.
   */
  const save = async (entry: Held, progress: TransferProgress, progressed: boolean, advance = true) => {
    settleCovered(progress, directory, (chainId, since) => followers.get(chainId)?.covers(since) ?? false);
    const state = outcomeOf(progress).state;
    const ok = await store.advance(
      owner,
      { id: entry.transfer.id, state, progress },
      advance ? stepOf(progress, state) : undefined,
      progressed,
    );
    if (!ok) {
      drop(entry);
      return;
    }
    entry.transfer = { ...entry.transfer, state, progress, version: entry.transfer.version + 1 };
    if (progressed) entry.lastProgressMs = Date.now();
    if (TERMINAL_STATES.has(state)) {
      drop(entry);
      return;
    }
    // Evidence of a new hop (a forward) may already sit in a follower's recent blocks, or be older.
    for (const key of index(entry))
      for (const f of followers.values()) for (const tx of f.recent(key)) await absorb(entry, tx);
    if (!entry.dropped) seek(entry);
  };

  /** Queues, as one task, the look-ups of what the transfer waits on that were not done yet. */
  const seek = (entry: Held) => {
    entry.retry = false;
    if (!entry.transfer.progress.source) return;
    const todo = lookupsToRun(entry.transfer.progress, directory, entry.seeking);
    if (todo.length === 0) return;
    for (const l of todo) entry.seeking.add(l.id);
    lookups.push(async () => {
      const { found, done } = await runLookups(todo, (l) => readers.get(l.chainId)!.search(l), {
        live: () => !entry.dropped && !stopped,
        awaits: (key) => entry.keys.has(key),
        failed(lookup, err) {
          const retry = isRetryable(err);
          entry.retry ||= retry;
          logger[retry ? 'debug' : 'warn'](
            { id: entry.transfer.id, lookup: lookup.id, err: errorMessage(err) },
            retry
              ? 'tracking: look-up failed; retrying'
              : 'tracking: the node refuses a look-up; relying on the followers',
          );
          return retry;
        },
      });
      void serial(entry, async () => {
        for (const l of todo) entry.seeking.delete(l.id);
        const progress = structuredClone(entry.transfer.progress);
        let learnt = false;
        for (const tx of found) learnt = applyTx(progress, tx.tx, tx.events, directory) || learnt;
        const searched = new Set([...(progress.searched ?? []), ...done.map((l) => l.id)]);
        if (!learnt && searched.size === (progress.searched?.length ?? 0)) return;
        progress.searched = [...searched];
        await save(entry, progress, learnt, learnt);
      });
    });
  };

  const absorb = async (entry: Held, tx: TxEvents) => {
    const progress = structuredClone(entry.transfer.progress);
    if (applyTx(progress, tx.tx, tx.events, directory)) await save(entry, progress, true);
  };

  const discover = async (entry: Held) => {
    if (entry.transfer.progress.source) return;
    const found = await readers.get(entry.transfer.chainId)!.sourceTx(entry.transfer.txHash);
    if (!found || entry.transfer.progress.source) return;
    const progress: TransferProgress = structuredClone(entry.transfer.progress);
    progress.source = { ...found.tx, code: found.code, log: found.log || undefined, ...found.asset };
    if (found.code === 0) {
      progress.hops = hopsOfSourceTx(found.tx, found.events, directory);
      // A takeover reads the window again: what it held may not have been matched yet.
      for (const f of followers.values()) progress.watch[f.chainId] = Math.max(1, f.windowStart());
    }
    await save(entry, progress, true);
    // What the followers already read of the hops' destinations.
    if (!entry.dropped) {
      for (const key of entry.keys)
        for (const f of followers.values()) for (const tx of f.recent(key)) await absorb(entry, tx);
    }
  };

  const onBlock = async (chainId: string, block: BlockEvents) => {
    const work: Promise<void>[] = [];
    for (const hash of block.hashes) {
      const id = bySourceHash.get(hash);
      const entry = id === undefined ? undefined : held.get(id);
      if (entry && entry.transfer.chainId === chainId) work.push(serial(entry, () => discover(entry)));
    }
    for (const tx of block.txs) {
      const ids = new Set<string>();
      for (const event of tx.events) {
        const key = keyOfEvent(event, chainId);
        for (const id of (key && byKey.get(key)) || []) ids.add(id);
      }
      for (const id of ids) {
        const entry = held.get(id);
        if (entry) work.push(serial(entry, () => absorb(entry, tx)));
      }
    }
    await Promise.all(work);
  };

  const followers = new Map<string, ChainFollower>();
  for (const reader of readers.values()) {
    followers.set(
      reader.chain.chainId,
      startChainFollower({
        reader,
        onBlock: (block) => onBlock(reader.chain.chainId, block),
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

  const abandon = async (entry: Held, reason: string) => {
    const progress = structuredClone(entry.transfer.progress);
    progress.abandoned = { reason };
    await save(entry, progress, false);
  };

  const take = (transfer: TrackedTransfer) => {
    const entry: Held = {
      transfer,
      keys: new Set(),
      lastProgressMs: Date.parse(transfer.lastProgressAt),
      waitedAtMs: 0,
      queue: Promise.resolve(),
      dropped: false,
      seeking: new Set(),
      retry: false,
    };
    held.set(transfer.id, entry);
    heldBySource.set(sourceKey(transfer.chainId, transfer.txHash), entry);
    index(entry);
    for (const [chainId, height] of Object.entries(transfer.progress.watch))
      followers.get(chainId)?.rewind(height);
    void serial(entry, async () => {
      if (!entry.transfer.progress.source) return discover(entry);
      for (const key of entry.keys)
        for (const f of followers.values()) for (const tx of f.recent(key)) await absorb(entry, tx);
      if (!entry.dropped) seek(entry);
    });
  };

  let claiming: Promise<void> = Promise.resolve();
  const claimRound = async () => {
    const renewing = Date.now();
    const kept = await store.renew(owner, leaseMs);
    leasesFrom = renewing;
    for (const entry of [...held.values()]) if (!kept.has(entry.transfer.id)) drop(entry);
    const unloaded = [...kept].filter((id) => !held.has(id));
    for (const row of await store.load(unloaded)) if (!held.has(row.id)) take(row);
    for (const row of await store.claim(owner, leaseMs, maxHeld - held.size))
      if (!held.has(row.id)) take(row);
    const now = Date.now();
    for (const entry of held.values()) {
      const verdict = idleVerdict(entry.transfer, entry, now, settings, clockOf);
      if (verdict.kind === 'waiting') entry.waitedAtMs = now;
      if (verdict.kind === 'abandon') void serial(entry, () => abandon(entry, verdict.reason));
      else if (!entry.transfer.progress.source) void serial(entry, () => discover(entry));
      else if (entry.retry) void serial(entry, async () => seek(entry));
    }
    const swept = await store.deleteUnseenAbandoned(settings.unseenRetentionMs, SWEEP_BATCH);
    if (swept > 0) logger.debug({ swept }, 'tracking: deleted abandoned transfers never seen on chain');
  };
  // Rounds run one after another; asks made while one waits to start join it (a burst of tracks is one round).
  let queued: Promise<void> | undefined;
  const claimNow = () => {
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
    const mine = heldBySource.get(sourceKey(chainId, hash));
    return mine && !mine.dropped && Date.now() < leasesFrom + leaseMs ? mine : undefined;
  };

  return {
    owner,
    async track(chainId, txHash) {
      requireChain(chainId);
      if (!validTxHash(txHash)) throw new InvalidTxHashError(txHash);
      const hash = normalizeHash(txHash);
      // Tracking a tracked tx always answers; a new one only while the unseen ones stay under the cap.
      let known = await store.get(chainId, hash);
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
      const transfers = rows.map((t) => recentJson(t, (fresh(t.chainId, t.txHash)?.transfer ?? t).progress));
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
      if (!keepLeases) await store.release(owner).catch(() => undefined);
      await Promise.all([...readers.values()].map((r) => r.close()));
    },
  };
}
