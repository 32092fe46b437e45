import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'weft/store/migrate.js';
import { dumpNewStore } from 'weft/store/pglite-db.js';

/**
 * The dev stack's new stores start as copies of two stores made when the package is built (`npm run
 * build`, which `npm install` and `npm start` run): an empty one (the router's) and a migrated one (the
 * chains'). Made at run time instead, a first start ran PGlite's initdb and the migrations, and copied
 * the result, before any store could open: about half of its time to the table on a 2-core machine.
 *
 * The templates are kept with the key of what made them: PGlite's version and weft's compiled store
 * code (its migrations and the codecs they write with). Templates of another key are not used, and
 * without them (the TypeScript source, as the tests run it) the stores are made as before.
 */
const DIR = fileURLToPath(new URL('./store-templates/', import.meta.url));

export interface StoreTemplates {
  /** initdb's store. */
  plain: string;
  /** A store with weft's chain schema. */
  migrated: string;
}

const paths = (dir: string): StoreTemplates & { key: string } => ({
  plain: join(dir, 'plain.tar.gz'),
  migrated: join(dir, 'migrated.tar.gz'),
  key: join(dir, 'key'),
});

/** PGlite's version and a digest of weft's compiled store folder. */
export function templateKey(): string {
  const require = createRequire(import.meta.url);
  const pglite = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const version = (JSON.parse(readFileSync(pglite, 'utf8')) as { version: string }).version;
  const store = dirname(require.resolve('weft/store/migrate.js'));
  const hash = createHash('sha256');
  const files = readdirSync(store, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(js|sql)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(file.slice(store.length)).update(readFileSync(file));
  return `pglite ${version}, store ${hash.digest('hex').slice(0, 16)}`;
}

/** The templates, when built for this PGlite and this store code. */
export function storeTemplates(dir = DIR): StoreTemplates | undefined {
  const at = paths(dir);
  if (!existsSync(at.key) || !existsSync(at.plain) || !existsSync(at.migrated)) return undefined;
  return readFileSync(at.key, 'utf8') === templateKey() ? at : undefined;
}

/** Makes the templates unless they are current; says whether it made them. */
export async function makeStoreTemplates(dir = DIR): Promise<boolean> {
  if (storeTemplates(dir)) return false;
  const at = paths(dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(at.plain, await dumpNewStore(async () => {}));
  writeFileSync(at.migrated, await dumpNewStore((db) => migrate(db).then(() => undefined)));
  // The key last: a build cut short leaves templates that are not used.
  writeFileSync(at.key, templateKey());
  return true;
}
