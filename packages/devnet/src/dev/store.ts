import { existsSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'weft/common/logger.js';
import { type Db, schemaForChain } from 'weft/store/db.js';
import { migrate } from 'weft/store/migrate.js';
import { openStoreThread, type StoreThread } from 'weft/store/store-thread.js';
import type { DevnetChain } from '../devnet.js';

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
 * Creates the stores in `dirs` that do not exist yet, as copies of one new empty store. PGlite's
 * initdb takes seconds, and the thread that ran it keeps about half a gigabyte it no longer needs
 * (measured); run once in a thread that then ends, it costs neither per store.
 */
export async function createStores(dataDir: string, dirs: string[]): Promise<void> {
  if (dataDir.startsWith('memory://')) return;
  const missing = dirs.filter((dir) => !existsSync(join(dir, 'PG_VERSION')));
  if (missing.length === 0) return;
  const empty = join(dataDir, '.empty-store');
  await rm(empty, { recursive: true, force: true });
  await (await openStoreThread(empty)).db.close();
  for (const dir of missing) {
    await rm(dir, { recursive: true, force: true });
    await cp(empty, dir, { recursive: true });
  }
  await rm(empty, { recursive: true, force: true });
}

/** The router's store of the dev stack, `<dataDir>/router`, beside the chains' (never a chain's name). */
export function routerStoreDir(dataDir: string): string {
  return dataDir.startsWith('memory://') ? dataDir : join(dataDir, 'router');
}

/**
 * A devnet chain's store, migrated (so its API answers from the start) and holding nothing but that
 * chain. The store outlives a devnet kept in memory or given another seed; an index of another run
 * of the chain is dropped and indexed afresh, as nothing else can reconcile it (the indexer resumes
 * after what it holds and would serve the old blocks). `anotherRun` says it was dropped.
 */
export async function openChainStore(
  dataDir: string,
  chain: DevnetChain,
  logger: Logger,
): Promise<StoreThread & { anotherRun: boolean }> {
  const { chainId } = chain.chain.info;
  const store = await openStoreThread(chainStoreDir(dataDir, chainId));
  const { db } = store;
  try {
    await migrate(db);
    const reason = await otherRun(db, chain);
    if (reason) {
      logger.warn({ chainId, reason }, 'the store holds another run of this chain: indexing it afresh');
      await db.exec(`DROP SCHEMA ${db.schema} CASCADE; CREATE SCHEMA ${db.schema}`);
      await migrate(db);
    }
    return { ...store, anotherRun: reason !== undefined };
  } catch (err) {
    await db.close();
    throw err;
  }
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
