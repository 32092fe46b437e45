// A chain's recent blocks and txs, live, and a search box (height, tx hash or address).
import { indexer } from '../api.js';
import { navigate } from '../nav.js';
import { fill, fmt, h, link, liveTable, showError } from '../ui.js';
import { accountPath, blockPath, chainHeader, txColumns, txPath } from './common.js';

const ROWS = 10;

function search(chainId) {
  const input = h('input', {
    class: 'wide',
    name: 'q',
    placeholder: 'Height, tx hash or address',
    'aria-label': 'Search',
  });
  return h(
    'form',
    {
      class: 'inline',
      onsubmit: (event) => {
        event.preventDefault();
        const q = input.value.trim();
        if (/^\d+$/.test(q)) navigate(blockPath(chainId, q));
        else if (/^(0x)?[0-9a-fA-F]{64}$/.test(q)) navigate(txPath(chainId, q));
        else if (q) navigate(accountPath(chainId, q));
      },
    },
    input,
    h('button', { type: 'submit' }, 'Go'),
  );
}

export async function render(ctx) {
  const [chainId] = ctx.params;
  const blocks = liveTable(
    [
      {
        title: 'Height',
        class: 'num',
        width: '20%',
        cell: (b) => link(blockPath(chainId, b.height), fmt.int(b.height)),
      },
      { title: 'Time', width: '38%', cell: (b) => fmt.time(b.timestamp) },
      { title: 'Txs', class: 'num', width: '12%', cell: (b) => fmt.int(b.tx_count) },
      { title: 'Gas used', class: 'num', width: '30%', cell: (b) => fmt.int(b.gas_used) },
    ],
    { minRows: ROWS, empty: 'No block is indexed yet.' },
  );
  const txs = liveTable(txColumns(chainId), { minRows: ROWS, empty: 'No tx is indexed yet.' });
  const problem = h('div');
  fill(
    ctx.main,
    ...chainHeader(chainId, 'activity', 'The latest blocks and txs, refreshed every 2 s.'),
    search(chainId),
    problem,
    h(
      'div',
      { class: 'grid2' },
      h('section', {}, h('h2', {}, 'Latest blocks'), blocks.el),
      h('section', { class: 'txs' }, h('h2', {}, 'Latest txs'), txs.el),
    ),
  );
  await ctx.every(2000, async () => {
    try {
      const page = { 'pagination.limit': ROWS, 'pagination.reverse': 'true' };
      const [b, t] = await Promise.all([
        indexer(chainId, '/indexer/block/v1/blocks', page, ctx.signal),
        indexer(chainId, '/indexer/tx/v1/txs', page, ctx.signal),
      ]);
      problem.replaceChildren();
      blocks.set(b.blocks);
      txs.set(t.txs);
    } catch (err) {
      if (err?.name === 'AbortError') throw err;
      showError(problem, err);
    }
  });
}
