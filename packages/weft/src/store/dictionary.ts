import { insertRows } from './bulk.js';
import type { IdKind, WriteSession } from './write-session.js';

/**
 * A table that maps a value (an address, a msg type, a msg-type set, a denom) to a small id.
 * Values are resolved in bulk: cache first, then one SELECT for the misses, then one INSERT of the
 * still-unknown values with ids max + 1, max + 2, … in first-seen order. That order only depends
 * on the data, so writing the same blocks in different batches gives the same ids.
 */
export interface Dictionary<V> {
  /** Ids of `values`, keyed by `keyOf(value)`; unknown values are created unless `create` is false. */
  resolve(session: WriteSession, values: Iterable<V>, create?: boolean): Promise<Map<string, number>>;
  keyOf(value: V): string;
}

interface DictionarySpec<V> {
  table: string;
  kind: IdKind;
  /** The stored column, and how a key is compared to it (`type_ids::text`). */
  column: string;
  keySql: string;
  keyType: 'bytea' | 'text';
  keyOf(value: V): string;
  /** The parameter value for a key in `keyType`. */
  param(value: V): unknown;
  /** A stored value as returned by the driver, back to its key. */
  keyOfRow(stored: unknown): string;
  insertType: 'bytea' | 'text' | 'int4[]';
  cacheSize: number;
}

function createDictionary<V>(spec: DictionarySpec<V>): Dictionary<V> {
  // Only ids from committed transactions enter the cache; insertion order doubles as age.
  const cache = new Map<string, number>();
  const remember = (key: string, id: number) => {
    if (cache.size >= spec.cacheSize) {
      const drop = Math.ceil(spec.cacheSize / 10);
      for (const old of cache.keys()) {
        cache.delete(old);
        if (cache.size <= spec.cacheSize - drop) break;
      }
    }
    cache.set(key, id);
  };
  return {
    keyOf: spec.keyOf,
    async resolve(session, values, create = true) {
      const ids = new Map<string, number>();
      const missing = new Map<string, V>();
      for (const value of values) {
        const key = spec.keyOf(value);
        if (ids.has(key) || missing.has(key)) continue;
        const cached = cache.get(key);
        if (cached === undefined) missing.set(key, value);
        else ids.set(key, cached);
      }
      if (missing.size === 0) return ids;
      const found = await session.tx.query<{ id: string | number; value: unknown }>(
        `SELECT id, ${spec.column} AS value FROM ${spec.table} WHERE ${spec.keySql} = ANY($1::${spec.keyType}[])`,
        [[...missing.values()].map(spec.param)],
      );
      const learned: Array<[string, number]> = [];
      for (const row of found) {
        const key = spec.keyOfRow(row.value);
        ids.set(key, Number(row.id));
        missing.delete(key);
        learned.push([key, Number(row.id)]);
      }
      if (create && missing.size > 0) {
        const newIds: number[] = [];
        const newValues: unknown[] = [];
        for (const [key, value] of missing) {
          const id = session.nextId(spec.kind);
          ids.set(key, id);
          learned.push([key, id]);
          newIds.push(id);
          newValues.push(spec.insertType === 'int4[]' ? value : spec.param(value));
        }
        await insertRows(session.tx, spec.table, {
          id: [spec.kind === 'account' ? 'int8' : 'int4', newIds],
          [spec.column]: [spec.insertType, newValues],
        });
      }
      session.afterCommit(() => {
        for (const [key, id] of learned) remember(key, id);
      });
      return ids;
    },
  };
}

// The decoder hands out one shared byte array per recurring account, and a batch keys each many times
// (edges, counters, dictionary lookups): the hex is kept per array, which also keeps the key string's hash.
const addressKeys = new WeakMap<Uint8Array, string>();

/** Lowercase hex of an address (its dictionary key). The array must not change afterwards. */
export function addressKey(address: Uint8Array): string {
  let key = addressKeys.get(address);
  if (key === undefined) {
    key = Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString('hex');
    addressKeys.set(address, key);
  }
  return key;
}

export function createAccountDictionary(cacheSize = 200_000): Dictionary<Uint8Array> {
  return createDictionary<Uint8Array>({
    table: 'account',
    kind: 'account',
    column: 'address',
    keySql: 'address',
    keyType: 'bytea',
    keyOf: addressKey,
    param: (address) => address,
    keyOfRow: (stored) => (stored as Buffer).toString('hex'),
    insertType: 'bytea',
    cacheSize,
  });
}

function createNameDictionary(table: string, kind: IdKind): Dictionary<string> {
  return createDictionary<string>({
    table,
    kind,
    column: 'name',
    keySql: 'name',
    keyType: 'text',
    keyOf: (name) => name,
    param: (name) => name,
    keyOfRow: (stored) => stored as string,
    insertType: 'text',
    cacheSize: 100_000,
  });
}

export const createMsgTypeDictionary = () => createNameDictionary('msg_type', 'msg_type');
export const createDenomDictionary = () => createNameDictionary('denom', 'denom');

/** Msg-type sets are keyed by their sorted ids in PostgreSQL's array text form, `{1,4}`. */
export function createMsgSetDictionary(): Dictionary<number[]> {
  return createDictionary<number[]>({
    table: 'msg_set',
    kind: 'msg_set',
    column: 'type_ids',
    keySql: 'type_ids::text',
    keyType: 'text',
    keyOf: (ids) => `{${ids.join(',')}}`,
    param: (ids) => `{${ids.join(',')}}`,
    keyOfRow: (stored) => `{${(stored as number[]).join(',')}}`,
    insertType: 'int4[]',
    cacheSize: 100_000,
  });
}
