import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from 'weft/store/migrate.js';
import { openStoreThread } from 'weft/store/store-thread.js';
import { createStores } from './store.js';
import { storeTemplates, templateKey } from './store-templates.js';

/** Where the package's build leaves the templates (the tests run the source, which has none). */
const BUILT = fileURLToPath(new URL('../../dist/dev/store-templates/', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'weft-store-templates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tables = (db: { query<T>(sql: string): Promise<T[]> }) =>
  db
    .query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    .then((rows) => rows.map((row) => row.name));

describe('the dev stack’s store templates', () => {
  it('are built for this PGlite and this store code, and start stores as initdb and the migrations leave them', async () => {
    const built = storeTemplates(BUILT);
    expect(built, `the build makes them in ${BUILT}`).toBeDefined();

    const chain = await openStoreThread(join(dir, 'chain'), { template: built!.migrated });
    try {
      expect(await migrate(chain.db)).toEqual({ applied: [] });
      expect(await tables(chain.db)).toEqual(expect.arrayContaining(['block', 'tx', 'tx_account_pack']));
      expect(await chain.db.query('SELECT height FROM block')).toEqual([]);
    } finally {
      await chain.db.close();
    }

    const router = await openStoreThread(join(dir, 'router'), { template: built!.plain });
    try {
      expect(await tables(router.db)).toEqual([]);
    } finally {
      await router.db.close();
    }

    // A store that exists is opened as it is: the template is for new ones only.
    const again = await openStoreThread(join(dir, 'router'), { template: built!.migrated });
    try {
      expect(await tables(again.db)).toEqual([]);
    } finally {
      await again.db.close();
    }
  }, 60_000);

  it('make the dev stack’s new stores, as initdb and the migrations would', async () => {
    const data = join(dir, 'made');
    const [plain, migrated] = [join(data, 'router'), join(data, 'chain_a')];
    await createStores(data, { plain: [plain], migrated: [migrated] }, {}, storeTemplates(BUILT));
    const router = await openStoreThread(plain);
    const chain = await openStoreThread(migrated);
    try {
      expect(await tables(router.db)).toEqual([]);
      expect(await migrate(chain.db)).toEqual({ applied: [] });
      expect(await tables(chain.db)).toEqual(expect.arrayContaining(['block', 'tx']));
    } finally {
      await router.db.close();
      await chain.db.close();
    }
  }, 60_000);

  it('are not used when made for other store code or another PGlite', () => {
    const copy = join(dir, 'stale');
    cpSync(BUILT, copy, { recursive: true });
    expect(storeTemplates(copy)).toBeDefined();
    writeFileSync(join(copy, 'key'), templateKey().replace(/store \w+/, 'store 0000000000000000'));
    expect(storeTemplates(copy)).toBeUndefined();
    rmSync(join(copy, 'key'));
    expect(storeTemplates(copy)).toBeUndefined();
  });
});
