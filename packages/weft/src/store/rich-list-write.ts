import { createTally, insertRows } from './bulk.js';
import { addressKey, type Dictionary } from './dictionary.js';
import { CheckpointError, type WriteSession } from './write-session.js';

export interface Balance {
  account: Uint8Array;
  denom: string;
  amount: bigint;
}

/** A balance a delta would have taken below zero; it is left as it was for the caller to repair. */
export interface NegativeBalance {
  account: Uint8Array;
  denom: string;
  /** What the balance would have become. */
  amount: bigint;
}

export interface RichListDictionaries {
  accounts: Dictionary<Uint8Array>;
  denoms: Dictionary<string>;
}

type Mode = 'absolute' | 'delta';

/** Checks the `rich_list` checkpoint for a write of `mode` at `height`. */
export function checkRichListHeight(session: WriteSession, height: number, operation: 'apply' | 'set'): void {
  const checkpoint = session.progress('rich_list');
  if (checkpoint === null) {
    throw new CheckpointError(
      `rich list ${operation} at height ${height} before the rich list was initialized`,
      null,
    );
  }
  if (operation === 'apply' ? height <= checkpoint : height < checkpoint) {
    throw new CheckpointError(
      `rich list ${operation} at height ${height} is behind the rich list checkpoint ${checkpoint}`,
      checkpoint,
    );
  }
}

export async function clearRichList(session: WriteSession): Promise<void> {
  await session.tx.exec('DELETE FROM rich_list; UPDATE denom SET holders = 0 WHERE holders <> 0');
}

export interface WrittenBalances {
  negative: NegativeBalance[];
  /** Denoms the rich list had never held before this write, sorted. */
  newDenoms: string[];
}

/**
 * Writes balances, either as absolute amounts or as deltas on the stored ones. Zero balances are
 * deleted and each denom's holder count follows rows appearing and disappearing.
 */
export async function writeBalances(
  session: WriteSession,
  dictionaries: RichListDictionaries,
  entries: Array<{ account: Uint8Array; denom: string; value: bigint }>,
  mode: Mode,
): Promise<WrittenBalances> {
  const merged = new Map<string, { account: Uint8Array; denom: string; value: bigint }>();
  for (const entry of entries) {
    const key = `${addressKey(entry.account)}|${entry.denom}`;
    const seen = merged.get(key);
    if (seen && mode === 'delta') seen.value += entry.value;
    else merged.set(key, { ...entry });
  }
  if (merged.size === 0) return { negative: [], newDenoms: [] };
  const list = [...merged.values()];
  const accountIds = await dictionaries.accounts.resolve(
    session,
    list.map((e) => e.account),
  );
  const denoms = [...new Set(list.map((e) => e.denom))];
  const known = await dictionaries.denoms.resolve(session, denoms, false);
  const newDenoms = denoms.filter((d) => !known.has(d)).sort();
  const denomIds = await dictionaries.denoms.resolve(session, denoms);
  const keyed = list.map((e) => ({
    ...e,
    accountId: accountIds.get(addressKey(e.account))!,
    denomId: denomIds.get(e.denom)!,
  }));
  const rows = await session.tx.query<{ denom_id: number; account_id: string; amount: string }>(
    `SELECT b.denom_id, b.account_id, b.amount FROM rich_list b
     JOIN ROWS FROM (unnest($1::int4[]), unnest($2::int8[])) AS k(denom_id, account_id)
       ON b.denom_id = k.denom_id AND b.account_id = k.account_id`,
    [keyed.map((e) => e.denomId), keyed.map((e) => e.accountId)],
  );
  const current = new Map(rows.map((r) => [`${r.denom_id}:${r.account_id}`, BigInt(r.amount)]));

  const negative: NegativeBalance[] = [];
  const upserts: Array<{ denomId: number; accountId: number; amount: bigint }> = [];
  const deletes: Array<{ denomId: number; accountId: number }> = [];
  const holders = createTally<number>();
  for (const e of keyed) {
    const before = current.get(`${e.denomId}:${e.accountId}`) ?? 0n;
    const after = mode === 'delta' ? before + e.value : e.value;
    if (after < 0n) {
      negative.push({ account: e.account, denom: e.denom, amount: after });
      continue;
    }
    if (after === before) continue;
    if (after === 0n) {
      deletes.push(e);
      holders.add(e.denomId, -1);
    } else {
      upserts.push({ denomId: e.denomId, accountId: e.accountId, amount: after });
      if (before === 0n) holders.add(e.denomId, 1);
    }
  }
  await insertRows(
    session.tx,
    'rich_list',
    {
      denom_id: ['int4', upserts.map((u) => u.denomId)],
      account_id: ['int8', upserts.map((u) => u.accountId)],
      amount: ['numeric', upserts.map((u) => u.amount.toString())],
    },
    'ON CONFLICT (denom_id, account_id) DO UPDATE SET amount = EXCLUDED.amount',
  );
  if (deletes.length > 0) {
    await session.tx.query(
      `DELETE FROM rich_list b USING ROWS FROM (unnest($1::int4[]), unnest($2::int8[])) AS k(denom_id, account_id)
       WHERE b.denom_id = k.denom_id AND b.account_id = k.account_id`,
      [deletes.map((d) => d.denomId), deletes.map((d) => d.accountId)],
    );
  }
  const changed = holders.entries();
  if (changed.length > 0) {
    await session.tx.query(
      `UPDATE denom d SET holders = d.holders + r.n FROM ROWS FROM (unnest($1::int4[]), unnest($2::int8[])) AS r(id, n)
       WHERE d.id = r.id`,
      [changed.map(([id]) => id), changed.map(([, n]) => n)],
    );
  }
  return { negative, newDenoms };
}
