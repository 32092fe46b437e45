// An account: its txs (all, or only those it signed), the NFTs it holds, and its balances (router).
import { router } from '../api.js';
import { navigate } from '../nav.js';
import { fill, fmt, h, link, liveTable, state } from '../ui.js';
import { chainHeader, chainPath, indexerPages, txColumns } from './common.js';

const PAGE = 20;

function txsSection(ctx, chainId, address) {
  const signer = ctx.query.get('signer') === 'true';
  const pages = indexerPages(ctx, chainId, `/indexer/tx/v1/txs/by_account/${encodeURIComponent(address)}`, {
    columns: txColumns(chainId),
    empty: signer ? 'This account signed no indexed tx.' : 'No indexed tx involves this account.',
    limit: PAGE,
    params: { is_signer: signer ? 'true' : undefined },
    rows: (r) => r.txs,
  });
  const toggle = h('input', {
    type: 'checkbox',
    checked: signer,
    onchange: () =>
      navigate(`${location.pathname}${toggle.checked ? '?signer=true' : ''}`, { replace: true }),
  });
  return {
    el: h(
      'section',
      {},
      h('h2', {}, 'Txs'),
      h(
        'label',
        { style: 'flex-direction:row;align-items:center;margin-bottom:.5rem' },
        toggle,
        ' only the txs it signed',
      ),
      pages.problem,
      pages.list,
      pages.pager,
    ),
    start: pages.start,
  };
}

function nftsSection(ctx, chainId, address) {
  const pages = indexerPages(
    ctx,
    chainId,
    `/indexer/nft/v1/tokens/by_account/${encodeURIComponent(address)}`,
    {
      columns: [
        {
          title: 'Collection',
          width: '35%',
          cell: (t) =>
            link(
              chainPath(chainId, `/nfts/${encodeURIComponent(t.collection_addr)}`),
              t.collection_name || t.collection_addr,
            ),
        },
        { title: 'Token', width: '25%', cell: (t) => h('span', { class: 'mono' }, t.nft.token_id) },
        { title: 'URI', width: '40%', cell: (t) => h('span', { class: 'mono muted' }, t.nft.uri) },
      ],
      empty: 'This account holds no NFT.',
      limit: PAGE,
      rows: (r) => r.tokens,
    },
  );
  return {
    el: h('section', {}, h('h2', {}, 'NFTs'), pages.problem, pages.list, pages.pager),
    start: pages.start,
  };
}

async function balancesSection(ctx, chainId, address) {
  const box = h('section', {}, h('h2', {}, 'Balances'), state('Asking the router…'));
  const load = async () => {
    try {
      const r = await router('/v2/info/balances', {
        body: { chains: { [chainId]: { address, denoms: [] } } },
        signal: ctx.signal,
      });
      const rows = Object.entries(r.chains?.[chainId]?.denoms ?? {}).map(([denom, b]) => ({ denom, ...b }));
      const list = liveTable(
        [
          { title: 'Denom', width: '60%', cell: (b) => h('span', { class: 'mono' }, b.denom) },
          { title: 'Amount', class: 'num', width: '40%', cell: (b) => fmt.amount(b.amount, b.decimals ?? 0) },
        ],
        { empty: 'No balance.' },
      );
      list.set(rows);
      box.replaceChildren(h('h2', {}, 'Balances'), list.el);
    } catch (err) {
      if (err?.name === 'AbortError') return;
      box.replaceChildren(
        h('h2', {}, 'Balances'),
        state(`Balances come from the router: ${err.message}`, 'error'),
      );
    }
  };
  return { el: box, start: load };
}

export async function render(ctx) {
  const [chainId, address] = ctx.params;
  const txs = txsSection(ctx, chainId, address);
  const nfts = nftsSection(ctx, chainId, address);
  const balances = await balancesSection(ctx, chainId, address);
  fill(
    ctx.main,
    ...chainHeader(chainId, 'activity'),
    h('h2', {}, 'Account ', h('span', { class: 'mono account-address' }, address)),
    txs.el,
    h('div', { class: 'grid2' }, nfts.el, balances.el),
  );
  await Promise.all([txs.start(), nfts.start(), balances.start()]);
}
