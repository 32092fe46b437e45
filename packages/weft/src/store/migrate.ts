import { readdir, readFile } from 'node:fs/promises';
import { BaseError } from '../common/errors.js';
import type { Db } from './db.js';
import { MIGRATION_STEPS, type MigrationStep } from './migration-steps.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;
/** A line `-- weft:step <name>` runs `MIGRATION_STEPS[name]` at that point of the migration. */
const STEP_LINE = /^-- weft:step ([a-z0-9_]+)[ \t]*$/m;

/** The migrations shipped with weft, `migrations/NNNN_name.sql`, in version order. */
export async function loadMigrations(dir: URL = MIGRATIONS_DIR): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for (const file of (await readdir(dir)).sort()) {
    const match = FILE_NAME.exec(file);
    if (!match) continue;
    migrations.push({
      version: Number(match[1]),
      name: match[2]!,
      sql: await readFile(new URL(file, dir), 'utf8'),
    });
  }
  return migrations;
}

/**
 * Brings the schema up to date in one transaction. An advisory lock keyed by the schema makes a
 * second process wait for the first and then find nothing left to do.
 */
export async function migrate(
  db: Db,
  migrations?: Migration[],
  steps: Record<string, MigrationStep> = MIGRATION_STEPS,
): Promise<{ applied: number[] }> {
  const all = migrations ?? (await loadMigrations());
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('weft:migrate:' || current_schema()))`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version int4 PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    refuseNewer(db, Math.max(0, ...done), all);
    const applied: number[] = [];
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      await runMigration(tx, migration.sql, steps);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return { applied };
  });
}

function refuseNewer(db: Db, newest: number, known: Migration[]): void {
  const latest = Math.max(0, ...known.map((m) => m.version));
  if (newest <= latest) return;
  throw new BaseError(
    'WEFT_ERR_STORE_SCHEMA_NEWER',
    `database schema "${db.schema}" is at version ${newest}, newer than this weft knows (${latest})`,
    { hint: 'run the weft that migrated it (or a newer one): its stored formats are unknown to this one' },
  );
}

/**
 * For a reader (`weft api`), which migrates nothing: refuses a schema a newer weft migrated, whose
 * stored formats this code may not read. A schema not created yet passes (the API waits for it).
 */
export async function assertSchemaKnown(db: Db, migrations?: Migration[]): Promise<void> {
  const [table] = await db.query<{ found: string | null }>(
    `SELECT to_regclass('schema_migrations')::text AS found`,
  );
  if (!table?.found) return;
  const [row] = await db.query<{ newest: number | null }>(
    'SELECT max(version) AS newest FROM schema_migrations',
  );
  refuseNewer(db, Number(row?.newest ?? 0), migrations ?? (await loadMigrations()));
}

/** A migration's SQL, with its code steps run where their lines are. */
async function runMigration(tx: Db, sql: string, steps: Record<string, MigrationStep>): Promise<void> {
  let rest = sql;
  for (let match = STEP_LINE.exec(rest); match; match = STEP_LINE.exec(rest)) {
    const step = steps[match[1]!];
    if (!step) throw new Error(`migration step "${match[1]}" is unknown`);
    const before = rest.slice(0, match.index);
    if (before.trim()) await tx.exec(before);
    await step(tx);
    rest = rest.slice(match.index + match[0].length);
  }
  if (rest.trim()) await tx.exec(rest);
}
