import { BaseError } from '../common/errors.js';
import { writeBlockBatch } from './block-write.js';
import type { Db } from './db.js';
import {
  createAccountDictionary,
  createDenomDictionary,
  createMsgSetDictionary,
  createMsgTypeDictionary,
} from './dictionary.js';
import { type InternalTxHeight, writeInternalTxHeights } from './internal-tx-write.js';
import type { BalanceDelta, IndexedBlock } from './records.js';
import {
  type Balance,
  checkRichListHeight,
  clearRichList,
  type NegativeBalance,
  writeBalances,
} from './rich-list-write.js';
import { inWriteSession, type WriteSession } from './write-session.js';

export { CheckpointError } from './write-session.js';
export type { Balance, InternalTxHeight, NegativeBalance };

export interface BlockWriterOptions {
  chainId: string;
  vm: 'evm' | 'move' | 'wasm';
  bech32Prefix: string;
  /** Addresses whose account ids are kept in memory (default 200,000). */
  accountCacheSize?: number;
}

/** Checkpoints; 0 where nothing was written yet (heights start at 1). */
export interface StoreProgress {
  /** Last written block: the indexer resumes at height + 1. */
  height: number;
  internalTxHeight: number;
  /** 0 until the rich list is initialized. */
  richListHeight: number;
}

export interface RichListApplied {
  /** Denoms with at least one balance the deltas would have taken below zero. */
  negativeDenoms: string[];
  negative: NegativeBalance[];
  /**
   * Denoms the rich list never held before: their deltas start from zero balances, which is right only
   * for a token whose every Transfer was applied (one deployed after the snapshot).
   */
  newDenoms: string[];
}

export interface RichListWriter {
  /** Replaces the whole rich list with absolute balances as of `height`. */
  initialize(height: number, balances: Balance[]): Promise<void>;
  /**
   * Applies the balance changes of `height` (after the rich-list checkpoint). A change that would
   * take a balance below zero is not applied; those balances are returned for `set` to repair.
   */
  apply(height: number, deltas: BalanceDelta[]): Promise<RichListApplied>;
  /** Overwrites some balances with absolute amounts read at `height` (not behind the checkpoint). */
  set(height: number, balances: Balance[]): Promise<void>;
}

export interface BlockWriter {
  /** Writes consecutive heights after the checkpoint, and the checkpoint, in one transaction. */
  writeBlocks(blocks: IndexedBlock[]): Promise<void>;
  /** Writes traced heights after the `internal_tx` checkpoint, up to the block checkpoint. */
  writeInternalTxs(heights: InternalTxHeight[]): Promise<void>;
  richList: RichListWriter;
  progress(): Promise<StoreProgress>;
  /** Every known account address, in id order (for rich-list repairs). */
  accountsAll(): Promise<Uint8Array[]>;
  lastBlock(): Promise<{ height: number; hash: Uint8Array; timestamp: string } | null>;
}

/** The indexer's only way into the store. One writer per chain; the schema must be migrated. */
export function createBlockWriter(db: Db, options: BlockWriterOptions): BlockWriter {
  const accounts = createAccountDictionary(options.accountCacheSize);
  const msgTypes = createMsgTypeDictionary();
  const msgSets = createMsgSetDictionary();
  const denoms = createDenomDictionary();
  let chainChecked = false;

  const write = <T>(fn: (session: WriteSession) => Promise<T>) =>
    inWriteSession(db, async (session) => {
      if (!chainChecked) {
        await checkChain(session, options);
        session.afterCommit(() => {
          chainChecked = true;
        });
      }
      return fn(session);
    });

  return {
    async writeBlocks(blocks) {
      if (blocks.length === 0) return;
      blocks.forEach((block, i) => {
        if (!Number.isSafeInteger(block.height) || block.height < 1) {
          throw new BaseError(
            'WEFT_ERR_STORE_BATCH',
            `block height ${block.height} is not a positive integer`,
          );
        }
        if (i > 0 && block.height !== blocks[i - 1]!.height + 1) {
          throw new BaseError(
            'WEFT_ERR_STORE_BATCH',
            `a batch holds consecutive heights; ${block.height} follows ${blocks[i - 1]!.height}`,
          );
        }
      });
      await write((session) => writeBlockBatch(session, { accounts, msgTypes, msgSets }, blocks));
    },
    async writeInternalTxs(heights) {
      if (heights.length === 0) return;
      heights.forEach((h, i) => {
        if (i > 0 && h.height <= heights[i - 1]!.height) {
          throw new BaseError(
            'WEFT_ERR_STORE_BATCH',
            `internal-tx heights must increase; ${h.height} follows ${heights[i - 1]!.height}`,
          );
        }
      });
      await write((session) => writeInternalTxHeights(session, accounts, heights));
    },
    richList: {
      initialize: (height, balances) =>
        write(async (session) => {
          await clearRichList(session);
          await writeBalances(session, { accounts, denoms }, balances.map(balanceEntry), 'absolute');
          session.setProgress('rich_list', height);
        }),
      apply: (height, deltas) =>
        write(async (session) => {
          checkRichListHeight(session, height, 'apply');
          const { negative, newDenoms } = await writeBalances(
            session,
            { accounts, denoms },
            deltas.map((d) => ({ account: d.account, denom: d.denom, value: d.delta })),
            'delta',
          );
          session.setProgress('rich_list', height);
          return { negativeDenoms: [...new Set(negative.map((n) => n.denom))].sort(), negative, newDenoms };
        }),
      set: (height, balances) =>
        write(async (session) => {
          checkRichListHeight(session, height, 'set');
          const { negative } = await writeBalances(
            session,
            { accounts, denoms },
            balances.map(balanceEntry),
            'absolute',
          );
          if (negative.length > 0) {
            throw new BaseError(
              'WEFT_ERR_STORE_BATCH',
              `rich list set: negative balance for ${negative[0]!.denom}`,
            );
          }
          session.setProgress('rich_list', height);
        }),
    },
    async progress() {
      const rows = await db.query<{ name: string; height: string }>('SELECT name, height FROM progress');
      const of = (name: string) => {
        const row = rows.find((r) => r.name === name);
        return row ? Number(row.height) : 0;
      };
      return { height: of('block'), internalTxHeight: of('internal_tx'), richListHeight: of('rich_list') };
    },
    async accountsAll() {
      const rows = await db.query<{ address: Buffer }>('SELECT address FROM account ORDER BY id');
      return rows.map((row) => row.address);
    },
    async lastBlock() {
      const [row] = await db.query<{ height: string; hash: Buffer; timestamp: string }>(
        'SELECT height, hash, timestamp FROM block ORDER BY height DESC LIMIT 1',
      );
      return row ? { height: Number(row.height), hash: row.hash, timestamp: row.timestamp } : null;
    },
  };
}

const balanceEntry = (b: Balance) => ({ account: b.account, denom: b.denom, value: b.amount });

/** A schema holds one chain: the first write records which, later writes must match it. */
async function checkChain(session: WriteSession, options: BlockWriterOptions): Promise<void> {
  const [row] = await session.tx.query<{ chain_id: string; vm: string; bech32_prefix: string }>(
    'SELECT chain_id, vm, bech32_prefix FROM chain_info',
  );
  if (!row) {
    await session.tx.query('INSERT INTO chain_info (chain_id, vm, bech32_prefix) VALUES ($1, $2, $3)', [
      options.chainId,
      options.vm,
      options.bech32Prefix,
    ]);
    return;
  }
  if (
    row.chain_id !== options.chainId ||
    row.vm !== options.vm ||
    row.bech32_prefix !== options.bech32Prefix
  ) {
    throw new BaseError(
      'WEFT_ERR_STORE_CHAIN_MISMATCH',
      `schema "${session.tx.schema}" holds chain ${row.chain_id} (${row.vm}, ${row.bech32_prefix}), not ${options.chainId} (${options.vm}, ${options.bech32Prefix})`,
    );
  }
}
