import { type Db, openDb } from '../../store/db.js';
import { migrate } from '../../store/migrate.js';
import { syntheticChain } from '../../store/test-support/chain.js';
import { createBlockWriter } from '../../store/writer.js';
import { type ApiServer, type ApiServerOptions, createApiServer } from '../server.js';

/** The chain of `syntheticStore`: an EVM rollup with internal txs on. */
export const SYNTHETIC_CHAIN = {
  chainId: 'synthetic-1',
  vm: 'evm' as const,
  bech32Prefix: 'init',
  internalTx: true,
};

/** An in-memory store of 30 synthetic blocks (2 txs each, 5 accounts), for server-wide API tests. */
export async function syntheticStore(): Promise<Db> {
  const db = await openDb({ dataDir: 'memory://' });
  await migrate(db);
  const { chainId, vm, bech32Prefix } = SYNTHETIC_CHAIN;
  await createBlockWriter(db, { chainId, vm, bech32Prefix }).writeBlocks(
    syntheticChain({ blocks: 30, txsPerBlock: 2, accountsPerTx: 1, accounts: 5, seed: 3 }),
  );
  return db;
}

/** A server over a fresh `syntheticStore`, with `options`; `close` ends both. */
export async function syntheticApi(
  options: Omit<ApiServerOptions, 'db' | 'chain'>,
): Promise<{ db: Db; api: ApiServer; close(): Promise<void> }> {
  const db = await syntheticStore();
  const api = await createApiServer({ ...options, db, chain: SYNTHETIC_CHAIN });
  return {
    db,
    api,
    async close() {
      await api.close();
      await db.close();
    },
  };
}
