import type { Db } from '../db.js';

export interface ChainRow {
  chainId: string;
  vm: 'evm' | 'move' | 'wasm';
  bech32Prefix: string;
}

/** The chain a schema holds, or undefined before the indexer's first write. */
export async function chainOfStore(db: Db): Promise<ChainRow | undefined> {
  const [row] = await db.query<{ chain_id: string; vm: ChainRow['vm']; bech32_prefix: string }>(
    'SELECT chain_id, vm, bech32_prefix FROM chain_info',
  );
  return row && { chainId: row.chain_id, vm: row.vm, bech32Prefix: row.bech32_prefix };
}

export interface IndexedHeights {
  /** Last indexed block (0 before the first). */
  height: number;
  /**
   * Last height whose internal txs are indexed. As rollytics reports it: the block height itself
   * when no block with txs lies above the traced height.
   */
  internalTxHeight: number;
  richListHeight: number;
}

/**
 * The bound on `/status`'s read. It costs the same whatever a client asks, so the statement timeout
 * meant for client-shaped queries (`DB_STATEMENT_TIMEOUT`, as low as a few ms) does not cut it: that
 * timeout counts wall time, and a store busy with the scans it stops would otherwise stop the one read
 * that says how the indexer is doing.
 */
export const STATUS_STATEMENT_TIMEOUT_MS = 5000;

export async function indexedHeights(db: Db): Promise<IndexedHeights> {
  if (db.backend !== 'postgres') return readHeights(db);
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL statement_timeout = ${STATUS_STATEMENT_TIMEOUT_MS}`);
    return readHeights(tx);
  });
}

async function readHeights(db: Db): Promise<IndexedHeights> {
  const [row] = await db.query<{
    block: string | null;
    internal_tx: string | null;
    rich_list: string | null;
    pending: boolean;
  }>(
    `SELECT
       (SELECT height FROM progress WHERE name = 'block') AS block,
       (SELECT height FROM progress WHERE name = 'internal_tx') AS internal_tx,
       (SELECT height FROM progress WHERE name = 'rich_list') AS rich_list,
       EXISTS (SELECT 1 FROM block WHERE tx_count > 0
               AND height > coalesce((SELECT height FROM progress WHERE name = 'internal_tx'), 0)) AS pending`,
  );
  const height = Number(row?.block ?? 0);
  const traced = Number(row?.internal_tx ?? 0);
  return {
    height,
    internalTxHeight: row?.pending ? traced : height,
    richListHeight: Number(row?.rich_list ?? 0),
  };
}
