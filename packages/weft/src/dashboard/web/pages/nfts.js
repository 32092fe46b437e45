// A chain's NFT collections.
import { fill, fmt, link, short } from '../ui.js';
import { accountLink, blockPath, chainHeader, chainPath, indexerPages } from './common.js';

export async function render(ctx) {
  const [chainId] = ctx.params;
  const pages = indexerPages(ctx, chainId, '/indexer/nft/v1/collections', {
    columns: [
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
        cell: (c) => short(c.object_addr, 10, 8),
      },
      { title: 'NFTs', class: 'num', width: '10%', cell: (c) => fmt.int(c.collection.nfts?.length) },
      { title: 'Creator', width: '20%', cell: (c) => accountLink(chainId, c.collection.creator) },
      {
        title: 'Created at',
        class: 'num',
        width: '15%',
        cell: (c) => link(blockPath(chainId, c.height), fmt.int(c.height)),
      },
    ],
    empty: 'No NFT collection is indexed on this chain yet.',
    rows: (r) => r.collections,
  });
  fill(ctx.main, ...chainHeader(chainId, 'nfts'), pages.problem, pages.list, pages.pager);
  await pages.start();
}
