import { BaseError } from '../common/errors.js';
import { addOnConflict, createTally, insertRowsTogether, type Tally } from './bulk.js';
import type { Db } from './db.js';

/** The dictionaries whose ids the writer assigns itself (max + 1). */
export type IdKind = 'account' | 'msg_type' | 'msg_set' | 'denom' | 'nft_collection' | 'nft_token';

export type ProgressName = 'block' | 'internal_tx' | 'rich_list';
export type CounterName = 'block' | 'tx' | 'evm_tx' | 'internal_tx' | 'collection';
export type AccountStat =
  | 'txs'
  | 'signed_txs'
  | 'evm_txs'
  | 'signed_evm_txs'
  | 'internal_txs'
  | 'nfts'
  | 'collections';
const ACCOUNT_STATS: AccountStat[] = [
  'txs',
  'signed_txs',
  'evm_txs',
  'signed_evm_txs',
  'internal_txs',
  'nfts',
  'collections',
];

/**
 * One write transaction. It holds the writer lock, knows the highest id of every dictionary and
 * the checkpoints as of its start, and gathers counter deltas that it writes just before commit.
 */
export interface WriteSession {
  readonly tx: Db;
  /** Highest id in use per dictionary; `nextId` advances it. */
  nextId(kind: IdKind): number;
  progress(name: ProgressName): number | null;
  counter(name: CounterName): number;
  setProgress(name: ProgressName, height: number): void;
  readonly counters: Tally<CounterName>;
  /** Adds `delta` to one of an account's totals (`account_stat`). */
  addAccountStat(accountId: number, stat: AccountStat, delta?: number): void;
  /** Runs once the transaction has committed (e.g. to publish new ids to an in-process cache). */
  afterCommit(fn: () => void): void;
}

export class CheckpointError extends BaseError {
  override name = 'CheckpointError';
  constructor(
    message: string,
    readonly checkpoint: number | null,
  ) {
    super('WEFT_ERR_STORE_CHECKPOINT', message, { status: 500 });
  }
}

const STATE_SQL = `SELECT
  (SELECT coalesce(max(id), 0) FROM account) AS account,
  (SELECT coalesce(max(id), 0) FROM msg_type) AS msg_type,
  (SELECT coalesce(max(id), 0) FROM msg_set) AS msg_set,
  (SELECT coalesce(max(id), 0) FROM denom) AS denom,
  (SELECT coalesce(max(id), 0) FROM nft_collection) AS nft_collection,
  (SELECT coalesce(max(id), 0) FROM nft_token) AS nft_token,
  (SELECT json_object_agg(name, height) FROM progress) AS progress,
  (SELECT json_object_agg(name, n) FROM counter) AS counters`;

type StateRow = Record<IdKind, string> & {
  progress: Record<string, number> | null;
  counters: Record<string, number> | null;
};

/**
 * Runs `fn` as one write transaction. Every writer of a chain (blocks, internal txs, rich list)
 * takes the same advisory lock first, so ids computed as max + 1 never collide, across processes too.
 */
export async function inWriteSession<T>(db: Db, fn: (session: WriteSession) => Promise<T>): Promise<T> {
  const hooks: Array<() => void> = [];
  const result = await db.transaction(async (tx) => {
    // A statement of its own: a statement's snapshot is taken before it could wait for the lock. PGlite
    // has one connection, whose transactions never overlap: no other writer can be waiting.
    if (db.backend !== 'pglite')
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('weft:write:' || current_schema()))`);
    const [row] = await tx.query<StateRow>(STATE_SQL);
    const maxIds = new Map<IdKind, number>(
      (['account', 'msg_type', 'msg_set', 'denom', 'nft_collection', 'nft_token'] as const).map((k) => [
        k,
        Number(row![k]),
      ]),
    );
    const progress = new Map(Object.entries(row!.progress ?? {}));
    const counterStart = row!.counters ?? {};
    const newProgress = new Map<ProgressName, number>();
    const counters = createTally<CounterName>();
    const stats = new Map<number, Record<AccountStat, number>>();
    const session: WriteSession = {
      tx,
      nextId(kind) {
        const id = maxIds.get(kind)! + 1;
        maxIds.set(kind, id);
        return id;
      },
      progress: (name) => progress.get(name) ?? null,
      counter: (name) => counterStart[name] ?? 0,
      setProgress: (name, height) => newProgress.set(name, height),
      counters,
      addAccountStat(accountId, stat, delta = 1) {
        let row = stats.get(accountId);
        if (!row) {
          row = Object.fromEntries(ACCOUNT_STATS.map((name) => [name, 0])) as Record<AccountStat, number>;
          stats.set(accountId, row);
        }
        row[stat] += delta;
      },
      afterCommit: (hook) => hooks.push(hook),
    };
    const value = await fn(session);
    await flushCounters(tx, counters, stats, newProgress);
    return value;
  });
  for (const hook of hooks) hook();
  return result;
}

async function flushCounters(
  tx: Db,
  counters: Tally<CounterName>,
  stats: Map<number, Record<AccountStat, number>>,
  progress: Map<ProgressName, number>,
): Promise<void> {
  const counterRows = counters.entries();
  // Every touched account gets its row, even when its deltas cancel out, so which rows exist does
  // not depend on how blocks were batched.
  const accounts = [...stats.keys()].sort((a, b) => a - b);
  const statColumns: Record<string, readonly ['int8', number[]]> = { account_id: ['int8', accounts] };
  for (const stat of ACCOUNT_STATS) statColumns[stat] = ['int8', accounts.map((id) => stats.get(id)![stat])];
  const names = [...progress.keys()];
  await insertRowsTogether(tx, [
    {
      table: 'counter',
      columns: {
        name: ['text', counterRows.map(([name]) => name)],
        n: ['int8', counterRows.map(([, n]) => n)],
      },
      suffix: addOnConflict(['name'], ['n']),
    },
    { table: 'account_stat', columns: statColumns, suffix: addOnConflict(['account_id'], ACCOUNT_STATS) },
    {
      table: 'progress',
      columns: { name: ['text', names], height: ['int8', names.map((n) => progress.get(n)!)] },
      suffix: 'ON CONFLICT (name) DO UPDATE SET height = EXCLUDED.height',
    },
  ]);
}
