import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BaseError } from '../common/errors.js';
import { type Db, openDb } from './db.js';
import { digest } from './digest.js';
import { migrate } from './migrate.js';
import { openStoreThread } from './store-thread.js';
import { EVM_CHAIN, syntheticChain } from './test-support/chain.js';
import { CheckpointError, createBlockWriter } from './writer.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-store-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a store in a thread of its own', () => {
  it('holds its own store during a transaction, never another store of the process', async () => {
    const [a, b] = (await Promise.all([openStoreThread('memory://'), openStoreThread('memory://')])).map(
      (store) => store.db,
    ) as [Db, Db];
    try {
      await a.exec('CREATE TABLE t (n int4)');
      await b.exec('CREATE TABLE t (n int4)');
      const events: string[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding!: () => void;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const writing = a.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (1)');
        holding();
        await released;
        events.push('a committed');
      });
      await held;
      const readOfA = a.query('SELECT count(*)::int4 AS n FROM t').then((rows) => {
        events.push('a read');
        return rows;
      });
      try {
        expect(await b.query('SELECT count(*)::int4 AS n FROM t')).toEqual([{ n: 0 }]);
        events.push('b read');
      } finally {
        release();
      }
      await writing;
      expect(await readOfA).toEqual([{ n: 1 }]);
      // B answered while A's transaction was open; A's own read waited for its commit.
      expect(events).toEqual(['b read', 'a committed', 'a read']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('writes in its thread exactly what the writer writes in this one', async () => {
    const chain = syntheticChain({
      blocks: 12,
      txsPerBlock: 5,
      accountsPerTx: 3,
      accounts: 30,
      seed: 5,
      evm: true,
      nfts: true,
    });
    const thread = await openStoreThread('memory://');
    const here = await openDb({ dataDir: 'memory://' });
    try {
      await migrate(thread.db);
      await migrate(here);
      const remote = thread.createWriter(thread.db, EVM_CHAIN);
      const local = createBlockWriter(here, EVM_CHAIN);
      for (const at of [0, 5]) {
        await remote.writeBlocks(chain.slice(at, at + 5));
        await local.writeBlocks(chain.slice(at, at + 5));
      }
      expect(await remote.progress()).toEqual(await local.progress());
      expect(await remote.lastBlock()).toEqual(await local.lastBlock());
      expect(await digest(thread.db)).toEqual(await digest(here));

      // The writer's own errors arrive as what they are: a BaseError with its code.
      const refused = await remote.writeBlocks(chain.slice(0, 1)).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(BaseError);
      expect(refused).toMatchObject({ name: 'CheckpointError', code: new CheckpointError('', 0).code });
    } finally {
      await thread.db.close();
      await here.close();
    }
  });

  it('keeps an on-disk store across a restart, and refuses calls once closed', async () => {
    const dataDir = join(dir, 'store');
    const { db: first } = await openStoreThread(dataDir);
    await first.exec('CREATE TABLE t (b bytea)');
    await first.query('INSERT INTO t VALUES ($1)', [Buffer.from('cafe', 'hex')]);
    await first.close();
    await expect(first.query('SELECT 1')).rejects.toMatchObject({
      code: 'WEFT_ERR_STORE_STOPPED',
      message: `the embedded store in ${dataDir} stopped: it was closed`,
    });

    const { db: again } = await openStoreThread(dataDir);
    try {
      expect(await again.query('SELECT b FROM t')).toEqual([{ b: Buffer.from('cafe', 'hex') }]);
    } finally {
      await again.close();
    }
  });

  // Linux keeps a nice value per thread, in field 19 of /proc/<pid>/task/<tid>/stat.
  it.runIf(existsSync('/proc/self/task'))(
    'opens its store at the nice value it is given, then goes back where the OS allows it',
    async () => {
      const niceOfThreads = () =>
        readdirSync('/proc/self/task').flatMap((tid) => {
          try {
            const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
            return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
          } catch {
            return []; // the thread ended
          }
        });
      const seen = new Set<number>();
      const watching = setInterval(() => {
        for (const nice of niceOfThreads()) seen.add(nice);
      }, 2);
      const opening = openStoreThread(join(dir, 'niced'), { openingNice: 7 });
      let db: Db | undefined;
      try {
        db = (await opening).db;
        await db.query('SELECT 1');
      } finally {
        clearInterval(watching);
      }
      try {
        expect(seen.has(7)).toBe(true);
        // Raising a priority again needs privileges: only a privileged run sees the thread go back.
        if (process.getuid?.() === 0) expect(niceOfThreads()).not.toContain(7);
      } finally {
        await db?.close();
      }
    },
  );

  it('works in the schema it is given, as openDb does', async () => {
    const { db } = await openStoreThread('memory://', { schema: 'chain_a' });
    try {
      expect(db.schema).toBe('chain_a');
      await db.exec('CREATE TABLE t (n int4)');
      expect(
        await db.query(`SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 't'`),
      ).toEqual([{ schema: 'chain_a' }]);
    } finally {
      await db.close();
    }
    await expect(openStoreThread('memory://', { schema: 'no-such;schema' })).rejects.toThrow(
      /not a valid schema name/,
    );
  });

  it('reports a store it cannot open', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, '');
    await expect(openStoreThread(file)).rejects.toThrow(/EEXIST|ENOTDIR/);
  });
});
