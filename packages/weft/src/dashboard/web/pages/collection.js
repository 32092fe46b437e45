// One NFT collection and its tokens.
import { indexer } from '../api.js';
import { fill, fmt, h, kv } from '../ui.js';
import { accountLink, chainHeader, indexerPages } from './common.js';

export async function render(ctx) {
  const [chainId, address] = ctx.params;
  const { collection: c } = await indexer(
    chainId,
    `/indexer/nft/v1/collections/${encodeURIComponent(address)}`,
    undefined,
    ctx.signal,
  );
  const pages = indexerPages(
    ctx,
    chainId,
    `/indexer/nft/v1/tokens/by_collection/${encodeURIComponent(address)}`,
    {
      columns: [
        { title: 'Token', width: '18%', cell: (t) => h('span', { class: 'mono' }, t.nft.token_id) },
        { title: 'Owner', width: '30%', cell: (t) => accountLink(chainId, t.owner) },
        {
          title: 'URI',
          width: '40%',
          cell: (t) => h('span', { class: 'mono muted', title: t.nft.uri }, t.nft.uri),
        },
        { title: 'Height', class: 'num', width: '12%', cell: (t) => fmt.int(t.height) },
      ],
      empty: 'This collection has no live NFT.',
      rows: (r) => r.tokens,
    },
  );
  fill(
    ctx.main,
    ...chainHeader(chainId, 'nfts'),
    h('h2', { class: 'collection-name' }, c.collection.name || '(no name)'),
    h(
      'div',
      { class: 'card' },
      kv([
        ['Address', h('span', { class: 'mono' }, c.object_addr)],
        ['Creator', accountLink(chainId, c.collection.creator)],
        c.collection.origin_name ? ['Origin name', c.collection.origin_name] : null,
        ['NFTs', fmt.int(c.collection.nfts?.length)],
        ['Created', `${fmt.int(c.height)} · ${fmt.time(c.timestamp)}`],
      ]),
    ),
    h('h2', {}, 'Tokens'),
    pages.problem,
    pages.list,
    pages.pager,
  );
  await pages.start();
}
