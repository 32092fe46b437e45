import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadSettings, parse } from 'weft/common/config.js';
import { type Db, openDb } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';
import { openStoreThread } from 'weft/store/store-thread.js';

/**
 * Resident memory of embedded stores (on-disk data folders): N PGlite instances in one process, in
 * this thread or each in a store thread of its own (`openStoreThread`, what `weft dev` runs per
 * chain), each measured in a new process. `new`: the folders are created (PGlite's initdb runs);
 * `existing`: the same folders opened again, as at every later start. Figures are RSS in MB after
 * each store opened, migrated and answered a query; `base` is the process before the first.
 */
export async function run(argv: string[]) {
  if (argv[0] === '--child') return child(argv[1] as Mode, argv.slice(2));
  const settings = loadSettings(
    {
      counts: {
        flag: 'counts',
        description: 'numbers of stores to open',
        parse: parse.listOf(parse.int(1, 10)),
        default: [1, 3],
      },
    },
    { argv, env: {} },
  );
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-pglite-memory-'));
  const results = [];
  try {
    for (const mode of ['in-process', 'thread'] as const) {
      for (const count of settings.counts) {
        const dirs = Array.from({ length: count }, (_, i) => join(dir, `${mode}-${count}-${i}`));
        for (const folders of ['new', 'existing']) {
          const { stdout } = await promisify(execFile)(
            process.execPath,
            [
              ...process.execArgv,
              fileURLToPath(new URL('./run.ts', import.meta.url)),
              'pglite-memory',
            ].concat(['--child', mode, ...dirs]),
            { maxBuffer: 1 << 20 },
          );
          results.push({
            mode,
            count,
            folders,
            ...(JSON.parse(stdout.slice(stdout.indexOf('{'))) as object),
          });
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { node: process.version, results };
}

type Mode = 'in-process' | 'thread';

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

async function child(mode: Mode, dirs: string[]) {
  const base = rssMb();
  const dbs: Db[] = [];
  const after: number[] = [];
  for (const dataDir of dirs) {
    const db = mode === 'thread' ? (await openStoreThread(dataDir)).db : await openDb({ dataDir });
    await migrate(db);
    await db.query('SELECT count(*) FROM tx');
    dbs.push(db);
    after.push(rssMb());
  }
  for (const db of dbs) await db.close();
  // The parent reads this process's figures from its output, then run.ts prints them again.
  process.stdout.write(JSON.stringify({ base_mb: base, rss_mb_after_each: after }));
  process.exit(0);
}
