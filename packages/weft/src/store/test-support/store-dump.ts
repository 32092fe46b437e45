import type { Db } from '../db.js';

/**
 * Every row of the Db's schema as SQL: an `INSERT` per table, rows in primary-key order, each value
 * as its text literal (bytea as hex, timestamps in UTC), `schema_migrations` left out. Loaded into a
 * schema migrated to the same version, it gives back the same rows: how a store written by an earlier
 * weft is kept as a test fixture (`stored-formats.test.ts`).
 */
export async function dumpStore(db: Db): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.exec(`SET LOCAL TimeZone = 'UTC'`);
    const tables = await tx.query<{ table: string; columns: string[]; key: string[] | null }>(
      `SELECT c.relname AS table,
         (SELECT array_agg(quote_ident(a.attname) ORDER BY a.attnum) FROM pg_attribute a
          WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
         (SELECT array_agg(quote_ident(a.attname) ORDER BY array_position(i.indkey::int2[], a.attnum))
          FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey::int2[])
          WHERE i.indrelid = c.oid AND i.indisprimary) AS key
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
       ORDER BY c.relname`,
    );
    const out: string[] = [];
    for (const { table, columns, key } of tables) {
      const values = columns.map((c) => `quote_nullable(t.${c}::text)`).join(` || ', ' || `);
      const order = (key ?? columns).map((c) => `t.${c}`).join(', ');
      const rows = await tx.query<{ row: string }>(
        `SELECT '(' || ${values} || ')' AS row FROM ${table} t ORDER BY ${order}`,
      );
      if (rows.length === 0) continue;
      out.push(`INSERT INTO ${table} (${columns.join(', ')}) VALUES\n${rows.map((r) => r.row).join(',\n')};`);
    }
    return `${out.join('\n')}\n`;
  });
}
