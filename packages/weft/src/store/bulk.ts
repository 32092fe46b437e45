import type { Db } from './db.js';

/**
 * Set-based writes: a whole batch of rows travels as one array parameter per column and is turned
 * back into rows by `ROWS FROM (unnest(...), ...)`, so a table costs one statement per batch
 * whatever the row count. JSON columns travel as one JSON array (`json_array_elements`), which is
 * cheaper than an array of strings: no per-element quoting on either side. Byte columns travel as
 * one `bytea` (the values end to end, sent in binary by PostgreSQL's driver) with each value's
 * offset and length, cut back apart by `substring`: no hex text is built, sent or parsed.
 */
export type ColumnType =
  | 'int8'
  | 'int4'
  | 'bool'
  | 'text'
  | 'bytea'
  | 'numeric'
  | 'timestamptz'
  | 'json'
  | 'int4[]';

export type Columns = Record<string, readonly [ColumnType, readonly unknown[]]>;

export interface RowSource {
  /** A derived table `(…) AS <alias>` with a column per name, built on `ROWS FROM (...)`. */
  from: string;
  /** Select list with the casts that arrays of arrays need (`r.type_ids::int4[]`). */
  select: string;
  names: string[];
  params: unknown[];
  length: number;
}

export function rowsFrom(columns: Columns, alias = 'r', firstParam = 1): RowSource {
  const names = Object.keys(columns);
  const functions: string[] = [];
  /** Columns of `ROWS FROM`, and what the derived table makes of them. */
  const unnested: string[] = [];
  const outputs: string[] = [];
  const select: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  const inner = `${alias}_`;
  let length = -1;
  for (const name of names) {
    const [type, values] = columns[name]!;
    if (length === -1) length = values.length;
    else if (values.length !== length)
      throw new Error(`bulk rows: column ${name} has ${values.length} values, not ${length}`);
    if (type === 'bytea') {
      const { bytes, offsets, lengths } = packBytes(values as ReadonlyArray<Uint8Array | null | undefined>);
      const data = param(bytes);
      functions.push(`unnest(${param(offsets)}::int4[])`, `unnest(${param(lengths)}::int4[])`);
      unnested.push(`${name}__o`, `${name}__l`);
      outputs.push(`substring(${data}::bytea FROM ${inner}.${name}__o FOR ${inner}.${name}__l) AS ${name}`);
    } else {
      if (type === 'json') functions.push(`json_array_elements(${param(JSON.stringify(values))}::json)`);
      // unnest() would flatten an array of arrays, so each inner array travels as its text form.
      else if (type === 'int4[]')
        functions.push(`unnest(${param(values.map((v) => `{${(v as number[]).join(',')}}`))}::text[])`);
      else functions.push(`unnest(${param(arrayLiteral(type, values))}::${type}[])`);
      unnested.push(name);
      outputs.push(`${inner}.${name}`);
    }
    select.push(type === 'int4[]' ? `${alias}.${name}::int4[]` : `${alias}.${name}`);
  }
  return {
    from: `(SELECT ${outputs.join(', ')} FROM ROWS FROM (${functions.join(', ')}) AS ${inner}(${unnested.join(', ')})) AS ${alias}`,
    select: select.join(', '),
    names,
    params,
    length: Math.max(length, 0),
  };
}

/** Byte values end to end, with each one's 1-based offset and length (both null for a null value). */
function packBytes(values: ReadonlyArray<Uint8Array | null | undefined>) {
  const offsets: Array<number | null> = [];
  const lengths: Array<number | null> = [];
  const parts: Uint8Array[] = [];
  let offset = 1;
  for (const value of values) {
    if (value === null || value === undefined) {
      offsets.push(null);
      lengths.push(null);
      continue;
    }
    offsets.push(offset);
    lengths.push(value.byteLength);
    parts.push(value);
    offset += value.byteLength;
  }
  return {
    bytes: Buffer.concat(parts),
    offsets: arrayLiteral('int4', offsets),
    lengths: arrayLiteral('int4', lengths),
  };
}

/** PostgreSQL text cannot hold NUL: chain data with one (a token id, a URI) loses it rather than stopping indexing. */
export const storedText = (text: string) => text.replace(/\0/g, '');

/** Characters an array element's text form must escape (or, NUL, drop). */
const NEEDS_ESCAPE = /[\\"\0]/;

/**
 * PostgreSQL's array text form, built here because the drivers' generic array serializers quote and
 * regex-escape every element, which costs more than the insert itself on 100,000-element columns.
 */
function arrayLiteral(type: ColumnType, values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const value = values[i];
    if (value === null || value === undefined) out += 'NULL';
    else if (type === 'text' || type === 'timestamptz') {
      const text = String(value);
      out += NEEDS_ESCAPE.test(text) ? `"${storedText(text).replace(/[\\"]/g, '\\$&')}"` : `"${text}"`;
    } else if (type === 'bool') out += value ? 't' : 'f';
    else out += String(value);
  }
  return `${out}}`;
}

/** `INSERT INTO table (...) SELECT ... FROM ROWS FROM (...) [suffix]`; nothing is sent for zero rows. */
export async function insertRows(db: Db, table: string, columns: Columns, suffix = ''): Promise<void> {
  await insertRowsTogether(db, [{ table, columns, suffix }]);
}

export interface RowsInsert {
  table: string;
  columns: Columns;
  /** `ON CONFLICT ...`, after the rows. */
  suffix?: string;
}

/**
 * Inserts into several tables in one statement, each but the last a data-modifying `WITH` query: one
 * round trip and one plan, where a statement apiece cost each its own (most of a small write's time on
 * PGlite). An insert with no rows is left out; nothing is sent when none has any.
 */
export async function insertRowsTogether(db: Db, inserts: readonly RowsInsert[]): Promise<void> {
  const statements: string[] = [];
  const params: unknown[] = [];
  for (const { table, columns, suffix = '' } of inserts) {
    const rows = rowsFrom(columns, 'r', params.length + 1);
    if (rows.length === 0) continue;
    params.push(...rows.params);
    statements.push(
      `INSERT INTO ${table} AS t (${rows.names.join(', ')}) SELECT ${rows.select} FROM ${rows.from} ${suffix}`,
    );
  }
  const last = statements.pop();
  if (last === undefined) return;
  const before = statements.map((statement, i) => `w${i} AS (${statement})`);
  await db.query(before.length === 0 ? last : `WITH ${before.join(', ')} ${last}`, params);
}

/** Adds `EXCLUDED.<col>` to each listed counter column of rows that already exist. */
export function addOnConflict(key: string[], counters: string[]): string {
  return `ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${counters.map((c) => `${c} = t.${c} + EXCLUDED.${c}`).join(', ')}`;
}

export interface Tally<K> {
  add(key: K, delta?: number): void;
  get(key: K): number;
  /** The keys whose deltas do not sum to zero. */
  entries(): Array<[K, number]>;
}

/** Sums numeric deltas by key (counter changes gathered over a batch, written in one statement). */
export function createTally<K>(): Tally<K> {
  const sums = new Map<K, number>();
  return {
    add(key, delta = 1) {
      sums.set(key, (sums.get(key) ?? 0) + delta);
    },
    get: (key) => sums.get(key) ?? 0,
    entries: () => [...sums].filter(([, n]) => n !== 0),
  };
}
