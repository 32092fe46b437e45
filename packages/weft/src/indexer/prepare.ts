import { stageEnd, stageStart, timed } from '../common/stage-times.js';
import type { BalanceDelta, IndexedBlock, IndexedInternalTx } from '../store/records.js';
import { type DecodeOptions, decodeBlock, erc20TransferDeltas, metaRequests } from './decode/index.js';
import { fetchInternalTxs } from './extensions/internal-txs.js';
import { fetchBlock, type NodeClients } from './fetch.js';
import type { MetaAnswerer } from './meta.js';
import type { PrepareContext } from './pipeline.js';

/** A height ready to write: the decoded block, and what the extensions need from it. */
export interface PreparedBlock {
  height: number;
  block: IndexedBlock;
  /** ERC20 balance changes of the block, when the rich list is kept. */
  balanceDeltas?: BalanceDelta[];
  /** Internal txs of the block, when they are kept and the node traced the block. */
  internalTxs?: IndexedInternalTx[];
}

export interface PrepareOptions {
  clients: NodeClients;
  meta: MetaAnswerer;
  decode: DecodeOptions;
  richList: boolean;
  /** Fetch the block's traces along with it (the node has the block at hand then). */
  internalTxs: boolean;
}

/** Fetch, answer the decoder's metadata questions at the height, decode: one height, start to end. */
export function createPrepare(options: PrepareOptions) {
  const { clients, meta, decode } = options;
  const { jsonRpc } = clients;
  return async (height: number, context: PrepareContext): Promise<PreparedBlock> => {
    const fetchStarted = stageStart();
    const [fetched, internalTxs] = await Promise.all([
      fetchBlock(clients, height, context),
      options.internalTxs && jsonRpc
        ? fetchInternalTxs(jsonRpc, height, context.call, decode.drops)
        : undefined,
    ]);
    const requests = timed('decode', (f) => metaRequests(f.block, f.blockResults, decode), fetched);
    const answers = requests.length > 0 ? await meta.answer(requests, height, context.call) : new Map();
    stageEnd('fetch', fetchStarted);
    // One timed section for both.
    const { block, balanceDeltas } = timed(
      'decode',
      (meta) => ({
        block: decodeBlock({ ...fetched, meta }, decode),
        balanceDeltas: options.richList ? erc20TransferDeltas(fetched, { drops: decode.drops }) : undefined,
      }),
      answers,
    );
    // A refused trace is left to the extension, which says so and skips the height.
    const calls = Array.isArray(internalTxs) ? internalTxs : undefined;
    const extensionAccounts = [
      ...(calls ?? []).flatMap((call) => (call.to ? [call.from, call.to] : [call.from])),
      ...(balanceDeltas ?? []).map((delta) => delta.account),
    ];
    if (extensionAccounts.length > 0) block.extensionAccounts = extensionAccounts;
    return {
      height,
      block,
      ...(balanceDeltas ? { balanceDeltas } : {}),
      ...(calls ? { internalTxs: calls } : {}),
    };
  };
}

export type Prepare = ReturnType<typeof createPrepare>;
