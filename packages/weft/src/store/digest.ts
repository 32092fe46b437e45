import type { Db } from './db.js';

/**
 * A hash of every table's full content in the Db's schema, independent of the order rows were
 * inserted in (rows are hashed in primary-key order, text bytewise so every server agrees). Two stores that indexed the same chain,
 * however they were batched, crashed or restarted, have equal digests. `schema_migrations` is left
 * out: it records when, not what.
 */
export async function digest(db: Db): Promise<Record<string, string>> {
  const tables = await db.query<{ table: string; key: string[] | null }>(
    `SELECT c.relname AS table,
       (SELECT array_agg(
          quote_ident(a.attname) || CASE WHEN a.atttypid IN ('text'::regtype, 'varchar'::regtype) THEN ' COLLATE "C"' ELSE '' END
          ORDER BY array_position(i.indkey::int2[], a.attnum))
        FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey::int2[])
        WHERE i.indrelid = c.oid AND i.indisprimary) AS key
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
     ORDER BY c.relname`,
  );
  const result: Record<string, string> = {};
  for (const { table, key } of tables) {
    const order = key && key.length > 0 ? key.map((k) => `t.${k}`).join(', ') : 't::text COLLATE "C"';
    const [row] = await db.query<{ digest: string }>(
      `SELECT md5(coalesce(string_agg(md5(t::text), '' ORDER BY ${order}), '')) AS digest FROM ${quoteIdent(table)} t`,
    );
    result[table] = row!.digest;
  }
  return result;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
