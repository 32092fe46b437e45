// One block: its header as the indexer stored it, and its txs.
import { indexer } from '../api.js';
import { fill, fmt, h, kv, link, liveTable, short } from '../ui.js';
import { blockPath, chainHeader, coinsOf, txColumns } from './common.js';

export async function render(ctx) {
  const [chainId, height] = ctx.params;
  const [{ block }, { txs }] = await Promise.all([
    indexer(chainId, `/indexer/block/v1/blocks/${height}`, undefined, ctx.signal),
    indexer(
      chainId,
      `/indexer/tx/v1/txs/by_height/${height}`,
      { 'pagination.limit': 1000, 'pagination.reverse': 'false' },
      ctx.signal,
    ),
  ]);
  const fees = await coinsOf(chainId, block.total_fee);
  const list = liveTable(txColumns(chainId), { empty: 'This block has no tx.' });
  list.set(txs);
  const n = Number(height);
  fill(
    ctx.main,
    ...chainHeader(chainId, 'activity'),
    h('h2', {}, `Block ${fmt.int(height)}`),
    h(
      'div',
      { class: 'card' },
      kv([
        ['Hash', short(block.hash, 16, 16)],
        ['Time', fmt.time(block.timestamp)],
        ['Since the previous block', `${fmt.int(block.block_time)} ms`],
        ['Proposer', block.proposer?.moniker || short(block.proposer?.operator_address ?? '')],
        ['Txs', fmt.int(block.tx_count)],
        ['Gas used / wanted', `${fmt.int(block.gas_used)} / ${fmt.int(block.gas_wanted)}`],
        ['Fees', fees],
        [
          'Neighbours',
          h(
            'span',
            {},
            n > 1 ? link(blockPath(chainId, n - 1), `← ${fmt.int(n - 1)}`) : '',
            ' ',
            link(blockPath(chainId, n + 1), `${fmt.int(n + 1)} →`),
          ),
        ],
      ]),
    ),
    h('h2', {}, 'Txs'),
    list.el,
  );
}
