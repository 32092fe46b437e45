// The rich list of one of the chain's tokens (EVM chains keep one), with the router's assets to pick from.
import { ApiError, routerAssets } from '../api.js';
import { navigate } from '../nav.js';
import { fill, fmt, h, showError, state } from '../ui.js';
import { accountLink, chainHeader, indexerPages } from './common.js';

export async function render(ctx) {
  const [chainId] = ctx.params;
  let assets = [];
  try {
    assets = await routerAssets(chainId);
  } catch {
    // Without the router the denom is typed in.
  }
  const denom = ctx.query.get('denom') ?? assets[0]?.denom ?? '';
  const decimals = assets.find((a) => a.denom === denom)?.decimals ?? 0;
  const picker = assets.length
    ? h(
        'select',
        {
          name: 'denom',
          onchange: (e) => navigate(`?denom=${encodeURIComponent(e.target.value)}`, { replace: true }),
        },
        ...assets.map((a) =>
          h('option', { value: a.denom, selected: a.denom === denom }, `${a.symbol || a.denom} · ${a.denom}`),
        ),
      )
    : h(
        'form',
        {
          class: 'inline',
          onsubmit: (e) => {
            e.preventDefault();
            navigate(`?denom=${encodeURIComponent(e.target.denom.value)}`, { replace: true });
          },
        },
        h('input', { name: 'denom', class: 'wide', value: denom, placeholder: 'denom or 0x token address' }),
        h('button', {}, 'Show'),
      );
  const pages = indexerPages(ctx, chainId, `/indexer/richlist/v1/${encodeURIComponent(denom)}`, {
    columns: [
      { title: '#', class: 'num', width: '8%', cell: (r) => fmt.int(r.rank) },
      { title: 'Account', width: '62%', cell: (r) => accountLink(chainId, r.account, r.account) },
      { title: 'Amount', class: 'num', width: '30%', cell: (r) => fmt.amount(r.amount, decimals) },
    ],
    empty: 'No holder is indexed for this token yet.',
    limit: 25,
    rows: (r, page) => r.holders.map((holder, i) => ({ ...holder, rank: page * 25 + i + 1 })),
    onError: (problem, err) => {
      if (err instanceof ApiError && err.status === 404) {
        problem.replaceChildren(
          state(`${chainId}'s indexer keeps no rich list of ${denom}: ${err.message}`, 'error'),
        );
      } else showError(problem, err);
    },
  });
  fill(
    ctx.main,
    ...chainHeader(chainId, 'richlist'),
    h('label', {}, 'Token', picker),
    pages.problem,
    h('h2', {}, 'Holders'),
    pages.list,
    pages.pager,
  );
  if (denom) await pages.start();
  else pages.problem.replaceChildren(state('Pick a token.'));
}
