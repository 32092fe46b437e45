// The network: every chain with its role, indexed height, the chain's own height and the lag, live.
import { chains, indexer, routerChainList, routerUrl } from '../api.js';
import { badge, fill, fmt, h, link, liveTable, state } from '../ui.js';

/** The chains to show: the configured ones (with their indexer API), then the router's others. */
async function chainRows() {
  const rows = chains().map((c) => ({ ...c }));
  try {
    for (const rc of await routerChainList()) {
      const row = rows.find((r) => r.chain_id === rc.chain_id);
      if (row) {
        row.pretty_name = rc.pretty_name;
        // `weft dev` names each chain's role; given bare indexer APIs, the router's chain type stands in.
        row.role ??= rc.chain_type;
      } else
        rows.push({
          chain_id: rc.chain_id,
          role: rc.chain_type,
          indexer_api: null,
          pretty_name: rc.pretty_name,
        });
    }
  } catch {
    // The router is optional here: the indexed chains are shown without it.
  }
  return rows;
}

function progress(row) {
  if (!row.indexer_api) return badge('not indexed');
  if (row.error) return badge('unreachable', 'bad');
  if (!row.status) return badge('…');
  const lag = row.status.lag;
  if (lag === undefined) return badge('node unknown', 'warn');
  if (lag <= 2) return badge('live', 'ok', 'live');
  return badge(`catching up · ${fmt.int(lag)} behind`, 'warn');
}

/** How far behind the indexed height an extension is (they follow it, usually a block behind). */
const behind = (lag) => (lag === 0 ? 'up to date' : `${fmt.int(lag)} behind`);

/** The EVM extensions' progress, a line each: internal-tx tracing and the rich list. */
function extensions(status) {
  if (!status) return '';
  const lines = [];
  if (status.internal_tx_lag !== undefined)
    lines.push(h('div', {}, `internal txs ${behind(status.internal_tx_lag)}`));
  if (status.rich_list_lag !== undefined)
    lines.push(h('div', {}, `rich list ${behind(status.rich_list_lag)}`));
  return h('span', { class: 'muted' }, ...lines);
}

export async function render(ctx) {
  const rows = await chainRows();
  const table = liveTable(
    [
      {
        title: 'Chain',
        width: '14%',
        cell: (r) =>
          r.indexer_api ? link(`/chains/${encodeURIComponent(r.chain_id)}`, r.chain_id) : r.chain_id,
      },
      { title: 'Name', width: '16%', cell: (r) => r.pretty_name ?? '' },
      { title: 'Role', width: '12%', cell: (r) => r.role ?? '' },
      { title: 'Indexed', class: 'num', width: '8%', cell: (r) => fmt.int(r.status?.height) },
      { title: 'Node', class: 'num', width: '8%', cell: (r) => fmt.int(r.status?.chain_height) },
      { title: 'Lag', class: 'num', width: '5%', cell: (r) => fmt.int(r.status?.lag) },
      { title: 'Progress', width: '13%', cell: progress },
      { title: 'Extensions', width: '18%', cell: (r) => extensions(r.status) },
      {
        title: 'API',
        width: '6%',
        cell: (r) =>
          r.indexer_api ? h('a', { href: `${r.indexer_api}/swagger/`, target: '_blank' }, 'docs') : '',
      },
    ],
    {
      minRows: rows.length,
      empty: 'No chain is configured: give weft dashboard --indexer-apis or --router-url.',
    },
  );
  const router = routerUrl();
  fill(
    ctx.main,
    h('h1', {}, 'Network'),
    h(
      'p',
      { class: 'sub' },
      'Each chain: the height its indexer reached against its node’s height, refreshed every 2 s.',
    ),
    table.el,
    h('h2', {}, 'Router'),
    router
      ? h(
          'div',
          { class: 'card' },
          h(
            'div',
            {},
            'Routes and tracks transfers over IBC, OPinit and the omnichain bridge at ',
            h('code', {}, router),
            '. ',
          ),
          h(
            'div',
            {},
            link('/transfers', 'Transfers it tracks'),
            ' · ',
            link('/route', 'Ask for a route'),
            ' · ',
            h('a', { href: `${router}/swagger/`, target: '_blank' }, 'API docs'),
          ),
        )
      : state('No router is configured (weft dashboard --router-url).'),
  );
  table.set(rows);
  await ctx.every(2000, async () => {
    await Promise.all(
      rows
        .filter((r) => r.indexer_api)
        .map(async (r) => {
          try {
            r.status = await indexer(r.chain_id, '/status', undefined, ctx.signal);
            r.error = undefined;
          } catch (err) {
            if (err?.name === 'AbortError') throw err;
            r.error = err;
          }
        }),
    );
    table.set(rows);
  });
}
