// A chain's NFT collections.
import { indexer } from '../api.js';
import { fill, fmt, h, link, liveTable, showError } from '../ui.js';
import { accountLink, chainHeader, chainPath, pager } from './common.js';

export async function render(ctx) {
  const [chainId] = ctx.params;
  const list = liveTable(
    [
      {
        title: 'Name',
        width: '28%',
        cell: (c) =>
          link(
            chainPath(chainId, `/nfts/${encodeURIComponent(c.object_addr)}`),
            c.collection.name || '(no name)',
          ),
      },
      {
        title: 'Address',
        width: '27%',
        cell: (c) => h('span', { class: 'mono', title: c.object_addr }, c.object_addr),
      },
      { title: 'NFTs', class: 'num', width: '10%', cell: (c) => fmt.int(c.collection.nfts?.length) },
      { title: 'Creator', width: '20%', cell: (c) => accountLink(chainId, c.collection.creator) },
      { title: 'Created', class: 'num', width: '15%', cell: (c) => fmt.int(c.height) },
    ],
    { empty: 'No NFT collection is indexed on this chain yet.' },
  );
  const problem = h('div');
  const paging = pager(async (key) => {
    try {
      const r = await indexer(
        chainId,
        '/indexer/nft/v1/collections',
        { 'pagination.limit': 20, 'pagination.key': key },
        ctx.signal,
      );
      list.set(r.collections);
      return { next: r.pagination?.next_key, total: r.pagination?.total };
    } catch (err) {
      showError(problem, err);
      return {};
    }
  });
  fill(ctx.main, ...chainHeader(chainId, 'nfts'), problem, list.el, paging.el);
  await paging.start();
}
