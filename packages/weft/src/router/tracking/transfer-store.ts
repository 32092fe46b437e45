import type { Db } from '../../store/db.js';
import { loadMigrations, migrate } from '../../store/migrate.js';
import { TrackedProgressInvalidError } from './errors.js';
import { decodeProgress, encodeProgress } from './progress-codec.js';
import {
  type RecentQuery,
  TERMINAL_STATES,
  type TrackedTransfer,
  type TransactionState,
  type TransferProgress,
} from './types.js';

/**
 * The tracking table (`migrations/`), in its own schema of the indexer's database. Leases make each
 * transfer advanced by one process at a time: `renew` extends the caller's leases (ids only, so holding
 * many transfers costs little), `claim` takes rows nobody holds or whose lease lapsed, with
 * `FOR UPDATE SKIP LOCKED` so concurrent claimers never block on or share a row; `advance` writes only
 * while the caller's lease is still valid. `progress` is stored in the versioned form of `progress-codec.ts`
 * and validated as it is read: a row that does not validate is never rewritten here, and is answered apart
 * (`unreadable`) where many rows are read at once.
 */

/** The schema the router keeps its tables in unless told otherwise. */
export const ROUTER_SCHEMA = 'router';

export async function migrateTracking(db: Db): Promise<void> {
  await migrate(db, await loadMigrations(new URL('./migrations/', import.meta.url)));
}

interface Row {
  id: string;
  chain_id: string;
  tx_hash: string;
  state: string;
  progress: unknown;
  version: number;
  created_at: string;
  last_progress_at: string;
}

const COLUMNS = 'id, chain_id, tx_hash, state, progress, version, created_at, last_progress_at';

const fieldsOf = (row: Row) => ({
  id: String(row.id),
  chainId: row.chain_id,
  txHash: row.tx_hash,
  state: row.state as TransactionState,
  version: row.version,
  createdAt: row.created_at,
  lastProgressAt: row.last_progress_at,
});

/** A row as the tracker reads it; throws `TrackedProgressInvalidError` when its progress does not validate. */
const fromRow = (row: Row): TrackedTransfer => {
  const fields = fieldsOf(row);
  return { ...fields, progress: decodeProgress(row.progress, fields) };
};

/** A row whose progress does not validate, by id, with the error that says why. */
export interface UnreadableRow {
  id: string;
  error: TrackedProgressInvalidError;
}

/** Rows read at once: those that read, and those that do not. */
export interface ReadRows {
  transfers: TrackedTransfer[];
  unreadable: UnreadableRow[];
}

function fromRows(rows: readonly Row[]): ReadRows {
  const out: ReadRows = { transfers: [], unreadable: [] };
  for (const row of rows) {
    try {
      out.transfers.push(fromRow(row));
    } catch (err) {
      if (!(err instanceof TrackedProgressInvalidError)) throw err;
      out.unreadable.push({ id: String(row.id), error: err });
    }
  }
  return out;
}

/** A row of `GET /v2/tx/recent`: its progress undefined when it does not read (its stored state still does). */
export type RecentRow = Omit<TrackedTransfer, 'progress'> & {
  progress: TransferProgress | undefined;
  updatedAt: string;
};

export interface TransferStore {
  /** Inserts a new transfer (SUBMITTED) or returns the one tracked already; `created` says which. */
  track(chainId: string, txHash: string): Promise<{ transfer: TrackedTransfer; created: boolean }>;
  /** Puts an abandoned transfer back in flight (tracking it again is a retry); false when it is gone. */
  revive(id: string): Promise<boolean>;
  /** The transfer of a source tx; throws `TrackedProgressInvalidError` when its progress does not read. */
  get(chainId: string, txHash: string): Promise<TrackedTransfer | undefined>;
  /** Whether a source tx is tracked, and its stored state, without reading its progress. */
  find(chainId: string, txHash: string): Promise<{ id: string; state: TransactionState } | undefined>;
  /** Extends every lease `owner` still holds; answers their ids (a transfer taken over is not among them). */
  renew(owner: string, leaseMs: number): Promise<Set<string>>;
  /** Transfers by id (those a renewal found held by this owner but not yet loaded, e.g. after a restart). */
  load(ids: readonly string[]): Promise<ReadRows>;
  /** Leases up to `limit` more transfers in flight for `owner`: unheld, or whose lease lapsed. */
  claim(owner: string, leaseMs: number, limit: number): Promise<ReadRows>;
  /** Transfers awaiting their source tx and not abandoned, counted up to `limit`. */
  countUnseen(limit: number): Promise<number>;
  /** Deletes up to `limit` abandoned transfers whose source tx was never seen, abandoned over `olderThanMs` ago. */
  deleteUnseenAbandoned(olderThanMs: number, limit: number): Promise<number>;
  /**
   * Writes a transfer's new progress and state if `owner` still holds its lease; false when it does not
   * (another process took it over). `progressed` resets the stall clock; `step` (none: a note such as
   * the look-ups done, not an advance) goes to the audit.
   */
  advance(
    owner: string,
    transfer: { id: string; state: TransactionState; progress: TransferProgress },
    step: string | undefined,
    progressed: boolean,
  ): Promise<boolean>;
  /** Gives up the leases `owner` holds (a clean shutdown), so others take them at once. */
  release(owner: string): Promise<void>;
  /**
   * The newest `limit` transfers, the last registered first (by id: `created_at` may tie), of one source
   * chain and/or in one stored state when asked (migration 0003's indexes, or the primary key, serve each).
   */
  recent(query: RecentQuery): Promise<RecentRow[]>;
}

export function createTransferStore(db: Db): TransferStore {
  return {
    async track(chainId, txHash) {
      const inserted = await db.query<Row>(
        `INSERT INTO tracked_transfer (chain_id, tx_hash, state, progress)
         VALUES ($1, $2, 'STATE_SUBMITTED', $3::jsonb)
         ON CONFLICT (chain_id, tx_hash) DO NOTHING
         RETURNING ${COLUMNS}`,
        [chainId, txHash, encodeProgress({ hops: [], watch: {} })],
      );
      if (inserted[0]) return { transfer: fromRow(inserted[0]), created: true };
      const existing = await this.get(chainId, txHash);
      return { transfer: existing!, created: false };
    },
    async revive(id) {
      const rows = await db.query<{ id: string }>(
        `UPDATE tracked_transfer
         SET terminal = false, progress = progress - 'abandoned', last_progress_at = now(), updated_at = now(),
             state = CASE WHEN progress ? 'source' THEN 'STATE_PENDING' ELSE 'STATE_SUBMITTED' END
         WHERE id = $1 AND state = 'STATE_ABANDONED'
         RETURNING id`,
        [id],
      );
      return rows.length > 0;
    },
    async countUnseen(limit) {
      const rows = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM (
           SELECT 1 FROM tracked_transfer WHERE state = 'STATE_SUBMITTED' LIMIT $1) unseen`,
        [limit],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async deleteUnseenAbandoned(olderThanMs, limit) {
      const rows = await db.query<{ id: string }>(
        `DELETE FROM tracked_transfer WHERE id IN (
           SELECT id FROM tracked_transfer
           WHERE state = 'STATE_ABANDONED' AND NOT (progress ? 'source')
             AND updated_at < now() - ($1::int8 * interval '1 millisecond')
           ORDER BY updated_at
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
         RETURNING id`,
        [olderThanMs, limit],
      );
      return rows.length;
    },
    async get(chainId, txHash) {
      const rows = await db.query<Row>(
        `SELECT ${COLUMNS} FROM tracked_transfer WHERE chain_id = $1 AND tx_hash = $2`,
        [chainId, txHash],
      );
      return rows[0] ? fromRow(rows[0]) : undefined;
    },
    async find(chainId, txHash) {
      const rows = await db.query<{ id: string; state: TransactionState }>(
        `SELECT id, state FROM tracked_transfer WHERE chain_id = $1 AND tx_hash = $2`,
        [chainId, txHash],
      );
      return rows[0] ? { id: String(rows[0].id), state: rows[0].state } : undefined;
    },
    async renew(owner, leaseMs) {
      const rows = await db.query<{ id: string }>(
        `UPDATE tracked_transfer SET lease_until = now() + ($2::int8 * interval '1 millisecond')
         WHERE owner = $1 AND NOT terminal
         RETURNING id`,
        [owner, leaseMs],
      );
      return new Set(rows.map((r) => String(r.id)));
    },
    async load(ids) {
      if (ids.length === 0) return { transfers: [], unreadable: [] };
      const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM tracked_transfer WHERE id = ANY($1::int8[])`, [
        ids,
      ]);
      return fromRows(rows);
    },
    async claim(owner, leaseMs, limit) {
      if (limit <= 0) return { transfers: [], unreadable: [] };
      const rows = await db.query<Row>(
        `UPDATE tracked_transfer t
         SET owner = $1, lease_until = now() + ($2::int8 * interval '1 millisecond')
         WHERE t.id IN (
           SELECT id FROM tracked_transfer
           WHERE NOT terminal AND (lease_until IS NULL OR lease_until < now())
           ORDER BY lease_until NULLS FIRST, id
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS.split(', ')
           .map((c) => `t.${c}`)
           .join(', ')}`,
        [owner, leaseMs, limit],
      );
      return fromRows(rows);
    },
    async advance(owner, transfer, step, progressed) {
      return db.transaction(async (tx) => {
        const rows = await tx.query<{ version: number }>(
          `UPDATE tracked_transfer
           SET state = $3, progress = $4::jsonb, terminal = $5, version = version + 1, updated_at = now(),
               last_progress_at = CASE WHEN $6 THEN now() ELSE last_progress_at END,
               owner = CASE WHEN $5 THEN NULL ELSE owner END,
               lease_until = CASE WHEN $5 THEN NULL ELSE lease_until END
           WHERE id = $1 AND owner = $2 AND lease_until > now()
           RETURNING version`,
          [
            transfer.id,
            owner,
            transfer.state,
            encodeProgress(transfer.progress),
            TERMINAL_STATES.has(transfer.state),
            progressed,
          ],
        );
        if (!rows[0]) return false;
        if (step === undefined) return true;
        await tx.query(
          `INSERT INTO tracked_transfer_step (transfer_id, version, state, step, owner) VALUES ($1, $2, $3, $4, $5)`,
          [transfer.id, rows[0].version, transfer.state, step, owner],
        );
        return true;
      });
    },
    async recent({ limit, chainId, state }) {
      const params: unknown[] = [];
      const where: string[] = [];
      if (chainId !== undefined) where.push(`chain_id = $${params.push(chainId)}`);
      if (state !== undefined) where.push(`state = $${params.push(state)}`);
      const rows = await db.query<Row & { updated_at: string }>(
        `SELECT ${COLUMNS}, updated_at FROM tracked_transfer
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY id DESC
         LIMIT $${params.push(limit)}`,
        params,
      );
      return rows.map((row) => {
        const fields = { ...fieldsOf(row), updatedAt: row.updated_at };
        try {
          return { ...fields, progress: decodeProgress(row.progress, fields) };
        } catch (err) {
          if (err instanceof TrackedProgressInvalidError) return { ...fields, progress: undefined };
          throw err;
        }
      });
    },
    async release(owner) {
      await db.query(`UPDATE tracked_transfer SET owner = NULL, lease_until = NULL WHERE owner = $1`, [
        owner,
      ]);
    },
  };
}
