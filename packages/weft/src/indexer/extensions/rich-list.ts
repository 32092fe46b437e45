import { bytesToHex, fromBech32, toHexAddress } from '../../chain/address.js';
import type { CometClient } from '../../chain/comet-client.js';
import type { JsonRpcClient } from '../../chain/json-rpc-client.js';
import type { RestClient } from '../../chain/rest-client.js';
import { errorMessage } from '../../common/errors.js';
import type { BalanceDelta } from '../../store/records.js';
import type { Balance, BlockWriter } from '../../store/writer.js';
import { createConcurrency } from '../concurrency.js';
import { type DropReporter, erc20TransferDeltas } from '../decode/index.js';
import type { PrepareContext } from '../pipeline.js';
import { withRetry } from '../retry.js';
import { createTrailingPipeline, type TrailingOptions } from './trailing.js';

/**
 * The EVM rich list: balances of every holder per ERC20 token (the bank denoms are ERC20 contracts on
 * minievm). It starts from a snapshot of all accounts' balances at one height (auth + bank, denoms mapped
 * to their contracts), then applies the ERC20 `Transfer` deltas of each indexed block in height order.
 * The bank shows only the chain's registered ERC20s: a plain ERC20 that already held balances at the
 * snapshot (minted at genesis, or in blocks before it) is not in it. So a token the list meets for the
 * first time whose contract existed before that block has its balances read for every known account with
 * batched `balanceOf`; one deployed later started at zero and its Transfers are all applied. When a
 * balance would go negative all the same, the token is read again the same way.
 */

export type RichListStore = Pick<BlockWriter, 'richList' | 'accountsAll' | 'progress'>;

export interface RichListOptions extends TrailingOptions<BalanceDelta[]> {
  comet: CometClient;
  rest: RestClient;
  jsonRpc: JsonRpcClient;
  store: RichListStore;
  /** Progress height of the list; 0 when it has no snapshot yet. */
  from: number;
  /** Where a first snapshot is taken: the first height this run indexes. */
  snapshotHeight: number;
  drops?: DropReporter;
}

const EVM_ADDRESS_BYTES = 20;

/** What a write leaves to read from the chain: see `repair`. */
interface PendingRepair {
  height: number;
  before: number;
  newDenoms: string[];
  negativeDenoms: string[];
}

export function createRichListExtension(options: RichListOptions) {
  const { rest, jsonRpc, store, indexed, logger, signal } = options;
  const concurrency = createConcurrency({ max: options.maxConcurrency });
  const contracts = new Map<string, string | undefined>();
  const retry = <T>(fn: (signal: AbortSignal) => Promise<T>) =>
    withRetry(fn, {
      signal,
      backoffMs: concurrency.backoffMs,
      onRetry: (err) => logger.debug({ err: errorMessage(err) }, 'rich list query failed; retrying'),
    });

  const contractOf = async (denom: string) => {
    if (!contracts.has(denom)) contracts.set(denom, await retry((s) => rest.contractByDenom(denom, s)));
    return contracts.get(denom);
  };

  /** Every 20-byte account's bank balances at `height`, as ERC20 holdings. */
  const snapshot = async (height: number): Promise<Balance[]> => {
    const accounts = (await retry((s) => rest.accounts(height, s)))
      .map((a) => ({ address: a.address, bytes: fromBech32(a.address).bytes }))
      .filter((a) => a.bytes.length === EVM_ADDRESS_BYTES);
    const out: Balance[] = [];
    let i = 0;
    const worker = async () => {
      while (i < accounts.length) {
        const { address, bytes: account } = accounts[i++]!;
        const coins = await retry((s) => rest.balances(address, height, s));
        for (const coin of coins) {
          const contract = await contractOf(coin.denom);
          if (contract) out.push({ account, denom: contract, amount: BigInt(coin.amount) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, accounts.length) }, worker));
    // Workers finish in any order; sort so the snapshot does not depend on timing.
    return out.sort((a, b) => compareHolding(a, b));
  };

  /** Reads tokens' balances of every known account at `height` and writes them as they are. */
  const reread = async (height: number, denoms: readonly string[]) => {
    const holders = (await store.accountsAll()).filter((a) => a.length === EVM_ADDRESS_BYTES);
    const hex = holders.map(toHexAddress);
    for (const denom of denoms) {
      const amounts = await retry((s) => jsonRpc.balancesOf(denom, hex, height, s));
      await store.richList.set(
        height,
        holders.map((account, j) => ({ account, denom, amount: amounts[j]! })),
      );
    }
  };

  /**
   * After a write at `height`: reads the tokens first met in it whose contract existed at `before` (their
   * earlier balances are missing), and those a delta left negative (which the snapshot missed).
   */
  const repair = async ({ height, before, newDenoms, negativeDenoms }: PendingRepair) => {
    const uncovered: string[] = [];
    for (const denom of newDenoms) {
      if (await retry((s) => jsonRpc.hasCode(denom, before, s))) uncovered.push(denom);
    }
    if (uncovered.length > 0) {
      logger.info({ height, tokens: uncovered }, 'reading the balances of tokens older than the rich list');
      await reread(height, uncovered);
    }
    const negative = negativeDenoms.filter((d) => !uncovered.includes(d));
    for (const token of negative) {
      logger.warn({ height, token }, 'a rich-list balance went negative; re-read it');
    }
    await reread(height, negative);
  };

  const deltasOf = async (height: number, { call }: PrepareContext) => {
    const noted = indexed.note(height);
    if (noted) return { height, deltas: noted };
    const blockResults = await call((signal) => options.comet.blockResults(height, signal));
    return { height, deltas: erc20TransferDeltas({ height, blockResults }, { drops: options.drops }) };
  };

  // The progress height (0: no snapshot yet). A retried batch must not apply a height twice.
  let applied = options.from;
  let pendingRepair: PendingRepair | undefined;

  /**
   * Takes the first snapshot if there is none. The indexer calls it before any block is written, a fixed
   * point of the write order, so the accounts it adds get the same ids in every run.
   */
  const initialize = async () => {
    if (applied !== 0) return;
    const height = options.snapshotHeight;
    logger.info({ height }, 'taking the rich-list snapshot');
    await store.richList.initialize(height, await snapshot(height));
    options.onWritten?.(height);
    applied = height;
  };

  return {
    initialize,
    /** Applies deltas until the abort; called again after a failure, it resumes after what is written. */
    async run() {
      // A write whose commit went through though its answer was lost is in the store, not in `applied`.
      applied = Math.max(applied, (await store.progress()).richListHeight);
      await initialize();
      const pipeline = createTrailingPipeline(options, {
        from: applied,
        what: 'the rich list',
        concurrency,
        prepare: deltasOf,
        write: async (batch) => {
          // Deltas add up: a batch is applied at its last height in one write. Concatenated in height
          // order, they meet new holders in the same order as height by height, so ids do not depend
          // on how heights were batched.
          const fresh = batch.filter((b) => b.height > applied);
          if (fresh.length > 0) {
            const height = fresh[fresh.length - 1]!.height;
            const { negativeDenoms, newDenoms } = await store.richList.apply(
              height,
              fresh.flatMap((b) => b.deltas),
            );
            applied = height;
            if (negativeDenoms.length > 0 || newDenoms.length > 0) {
              pendingRepair = { height, before: fresh[0]!.height - 1, newDenoms, negativeDenoms };
            }
          }
          if (pendingRepair) {
            await repair(pendingRepair);
            pendingRepair = undefined;
          }
        },
      });
      await pipeline.run();
    },
  };
}

function compareHolding(a: Balance, b: Balance): number {
  if (a.denom !== b.denom) return a.denom < b.denom ? -1 : 1;
  const x = bytesToHex(a.account);
  const y = bytesToHex(b.account);
  return x < y ? -1 : x > y ? 1 : 0;
}
