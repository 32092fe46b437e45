import type { Logger } from '../common/logger.js';
import type { DevnetChain } from '../devnet/devnet.js';
import { type Db, schemaForChain } from '../store/db.js';
import { migrate } from '../store/migrate.js';

/**
 * The schema of one devnet chain in the dev stack's shared store, migrated (so its API answers from
 * the start) and holding nothing but that chain. The store outlives a devnet kept in memory or given
 * another seed; an index of another run of the chain is dropped and indexed afresh, as nothing else
 * can reconcile it (the indexer resumes after what it holds and would serve the old blocks).
 */
export async function openChainStore(root: Db, chain: DevnetChain, logger: Logger): Promise<Db> {
  const { chainId } = chain.chain.info;
  const schema = schemaForChain(chainId);
  const db = await root.withSchema(schema);
  await migrate(db);
  const reason = await otherRun(db, chain);
  if (reason) {
    logger.warn({ chainId, schema, reason }, 'the store holds another run of this chain: indexing it afresh');
    await root.exec(`DROP SCHEMA ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    await migrate(db);
  }
  return db;
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
