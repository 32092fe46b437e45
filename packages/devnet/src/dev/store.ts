import { existsSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'weft/common/logger.js';
import { type Db, schemaForChain } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';
import { compilePglite } from 'weft/store/pglite-db.js';
import { openStoreThread, type StoreThread, type StoreThreadOptions } from 'weft/store/store-thread.js';
import type { DevnetChain } from '../devnet.js';
import { type StoreTemplates, storeTemplates } from './store-templates.js';

/**
 * `shared_buffers` of the dev stack's stores, MB. At PostgreSQL's 128 a store thread took about 220 MB
 * of resident memory, at 16 about 90 (five stores opened again, measured); a devnet's store is a few
 * tens of MB, and the files under it stay in the system's page cache.
 */
const DEV_SHARED_BUFFERS_MB = 16;

/**
 * The stores' threads' nice value while they open again (on a warm start): five stores opening (0.6 s
 * of CPU each) beside the main thread, which loads the stack's modules and builds the chains meanwhile,
 * took its CPU at equal priority; lower, they run on what it leaves, and in three paired warm starts on
 * 2 cores the table came 0.6 to 1.2 s sooner. They go back to their former priority once open where the
 * OS allows it. On a first start the stores just made are the slowest part: they keep the priority.
 */
const DEV_STORE_OPENING_NICE = 10;

/**
 * The dev stack keeps each chain in an embedded store of its own, `<dataDir>/<schemaForChain(id)>`,
 * run with its writer in a worker thread of its own (`openStoreThread`): a chain's write transaction
 * holds only that chain's store, and no statement holds up the thread that serves the APIs. Each is
 * a plain store (`public` schema) that `weft api --data-dir` can also open while `weft dev` is stopped.
 */
export function chainStoreDir(dataDir: string, chainId: string): string {
  return dataDir.startsWith('memory://') ? dataDir : join(dataDir, schemaForChain(chainId));
}

/**
 * Removes a store of the former layout (one PGlite database for every chain, a schema each, in
 * `dataDir` itself); every chain is then indexed afresh in a store of its own.
 */
export async function retireSharedStore(dataDir: string, logger: Logger): Promise<void> {
  if (dataDir.startsWith('memory://') || !existsSync(join(dataDir, 'PG_VERSION'))) return;
  logger.warn(
    { dataDir },
    'the store holds every chain in one database (the former layout): indexing each chain afresh in a store of its own',
  );
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * Creates the stores of `dirs` that do not exist yet, as copies of a new empty store: `plain` ones as
 * initdb leaves it, `migrated` ones with weft's schema. Each empty store is made in a thread that then
 * ends: the thread that ran initdb, or unpacked a template, keeps a few hundred MB it no longer needs
 * (measured), so neither is done in the store's own thread. With `templates` (built with the package,
 * `store-templates.ts`) each empty store is a template unpacked, the two side by side; without them
 * one is made by initdb (seconds of WebAssembly), copied, then migrated (a second or two) and copied.
 * Says how many it created.
 */
export async function createStores(
  dataDir: string,
  dirs: { plain: string[]; migrated: string[] },
  options: StoreThreadOptions = {},
  templates?: StoreTemplates,
): Promise<number> {
  if (dataDir.startsWith('memory://')) return 0;
  const missing = (list: string[]) => list.filter((dir) => !existsSync(join(dir, 'PG_VERSION')));
  const plain = missing(dirs.plain);
  const migrated = missing(dirs.migrated);
  const created = plain.length + migrated.length;
  if (created === 0) return 0;
  // Side by side: a copy is a thousand small files, and copies one after another took twice as long.
  const copyTo = (empty: string, targets: string[]) =>
    Promise.all(
      targets.map(async (dir) => {
        await rm(dir, { recursive: true, force: true });
        await cp(empty, dir, { recursive: true });
      }),
    );
  /** Opens a store in `dir` (new: unpacked from `template`, or made by initdb), migrating it or not. */
  const make = async (dir: string, template: string | undefined, migrating: boolean) => {
    const { db } = await openStoreThread(dir, { ...options, template });
    try {
      if (migrating) await migrate(db);
    } finally {
      await db.close();
    }
  };
  const empty = (kind: string) => join(dataDir, `.empty-store-${kind}`);
  const remove = (dir: string) => rm(dir, { recursive: true, force: true });

  if (templates) {
    const fromTemplate = async (kind: 'plain' | 'migrated', targets: string[]) => {
      if (targets.length === 0) return;
      await remove(empty(kind));
      await make(empty(kind), templates[kind], false);
      await copyTo(empty(kind), targets);
      await remove(empty(kind));
    };
    await Promise.all([fromTemplate('plain', plain), fromTemplate('migrated', migrated)]);
    return created;
  }
  const one = empty('initdb');
  await remove(one);
  await make(one, undefined, false);
  await copyTo(one, plain);
  if (migrated.length > 0) {
    await make(one, undefined, true);
    await copyTo(one, migrated);
  }
  await remove(one);
  return created;
}

/** The router's store of the dev stack, `<dataDir>/router`, beside the chains' (never a chain's name). */
export function routerStoreDir(dataDir: string): string {
  return dataDir.startsWith('memory://') ? dataDir : join(dataDir, 'router');
}

export interface DevStores {
  /** The store of each chain of `chainIds`, in that order, migrated. */
  chains: StoreThread[];
  router: StoreThread;
}

/**
 * Opens the dev stack's stores side by side, each in its thread, before the chains are up (they need
 * only the chain ids): the chains' stores, migrated (so their APIs answer from the start), and the
 * router's. PGlite is compiled once for them all, and each runs with `DEV_SHARED_BUFFERS_MB` (and
 * opens at `DEV_STORE_OPENING_NICE` unless some were made just now). New
 * stores are made by `createStores`, from the templates built with the package when they are current.
 * `opened` gets every store as it opens, also when another fails, so that it can be closed.
 */
export async function openDevStores(
  dataDir: string,
  chainIds: string[],
  logger: Logger,
  opened: (store: StoreThread) => void,
): Promise<DevStores> {
  await retireSharedStore(dataDir, logger);
  const made = { sharedBuffersMb: DEV_SHARED_BUFFERS_MB, wasm: await compilePglite() };
  const dirs = chainIds.map((chainId) => chainStoreDir(dataDir, chainId));
  const created = await createStores(
    dataDir,
    { plain: [routerStoreDir(dataDir)], migrated: dirs },
    made,
    storeTemplates(),
  );
  // Stores made just now are the slowest part of a first start: they open at the main thread's priority.
  const options = created > 0 ? made : { ...made, openingNice: DEV_STORE_OPENING_NICE };
  const open = async (dir: string) => {
    const store = await openStoreThread(dir, options);
    opened(store);
    return store;
  };
  const stores = await Promise.allSettled([
    ...dirs.map(async (dir) => {
      const store = await open(dir);
      await migrate(store.db);
      return store;
    }),
    open(routerStoreDir(dataDir)),
  ]);
  const failed = stores.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  const all = stores.map((result) => (result as PromiseFulfilledResult<StoreThread>).value);
  return { chains: all.slice(0, -1), router: all.at(-1)! };
}

/**
 * The store outlives a devnet kept in memory or given another seed; an index of another run of the
 * chain is dropped and indexed afresh, as nothing else can reconcile it (the indexer resumes after
 * what it holds and would serve the old blocks). Says whether it was dropped.
 */
export async function forgetAnotherRun(db: Db, chain: DevnetChain, logger: Logger): Promise<boolean> {
  const reason = await otherRun(db, chain);
  if (!reason) return false;
  logger.warn(
    { chainId: chain.chain.info.chainId, reason },
    'the store holds another run of this chain: indexing it afresh',
  );
  await db.exec(`DROP SCHEMA ${db.schema} CASCADE; CREATE SCHEMA ${db.schema}`);
  await migrate(db);
  return true;
}

/** Why the indexed blocks are not this chain's (the last one is compared), or undefined if they are. */
async function otherRun(db: Db, chain: DevnetChain): Promise<string | undefined> {
  const [row] = await db.query<{ height: string; hash: Uint8Array }>(
    `SELECT height, hash FROM block WHERE height = (SELECT height FROM progress WHERE name = 'block')`,
  );
  if (!row) return undefined;
  const height = Number(row.height);
  const head = chain.chain.latestHeight();
  if (height > head) return `indexed up to height ${height}, the chain is at ${head}`;
  const blockId = chain.chain.getBlock(height)?.block.block_id as { hash?: string } | undefined;
  const stored = Buffer.from(row.hash).toString('hex');
  if (blockId?.hash?.toLowerCase() !== stored) return `block ${height} has another hash`;
  return undefined;
}
