// Pieces several chain pages share: the chain's header and tabs, tx summaries, links to records.
import { indexer, indexerUrl, routerAssets } from '../api.js';
import { badge, fmt, h, link, liveTable, short, showError } from '../ui.js';

export const chainPath = (chainId, rest = '') => `/chains/${encodeURIComponent(chainId)}${rest}`;
export const txPath = (chainId, hash) => chainPath(chainId, `/txs/${encodeURIComponent(hash)}`);
export const blockPath = (chainId, height) => chainPath(chainId, `/blocks/${height}`);
export const accountPath = (chainId, address) =>
  chainPath(chainId, `/accounts/${encodeURIComponent(address)}`);

/**
 * Coins as a person reads them: in the asset's decimals with its symbol where the router lists the
 * denom (six places at most), else in base units; the exact base units are the tooltip.
 */
export async function coinsOf(chainId, coins) {
  if (!coins?.length) return 'none';
  let assets = [];
  try {
    assets = await routerAssets(chainId);
  } catch {
    // Without the router, base units.
  }
  const exact = coins.map((c) => `${c.amount} ${c.denom}`).join(', ');
  const read = coins.map((c) => {
    const asset = assets.find((a) => a.denom === c.denom);
    return asset
      ? `${fmt.amount(c.amount, asset.decimals)} ${asset.symbol || c.denom}`
      : `${fmt.amount(c.amount)} ${c.denom}`;
  });
  return h('span', { title: exact }, read.join(', '));
}

/** A link to a tx on the dashboard when `chainId` is indexed here, else the hash alone. */
export function txLink(chainId, hash, text) {
  if (!hash) return '–';
  return indexerUrl(chainId) ? link(txPath(chainId, hash), text ?? short(hash)) : (text ?? short(hash));
}

export function accountLink(chainId, address, text) {
  if (!address) return '–';
  return indexerUrl(chainId)
    ? link(accountPath(chainId, address), text ?? short(address, 10, 6))
    : short(address, 10, 6);
}

/** The chain's title and tabs; `active` is the tab's key. */
export function chainHeader(chainId, active, subtitle) {
  const api = indexerUrl(chainId);
  const tab = (key, href, text) => link(href, text, { class: key === active ? 'active' : undefined });
  return [
    h('h1', {}, chainId),
    subtitle ? h('p', { class: 'sub' }, subtitle) : null,
    h(
      'nav',
      { class: 'tabs' },
      tab('activity', chainPath(chainId), 'Blocks & txs'),
      tab('nfts', chainPath(chainId, '/nfts'), 'NFT collections'),
      tab('richlist', chainPath(chainId, '/richlist'), 'Rich list'),
      api ? h('a', { href: `${api}/swagger/`, target: '_blank' }, 'API docs ↗') : null,
    ),
  ];
}

// The field each common msg names its signer by (its `cosmos.msg.v1.signer`), first match wins: OPinit's
// outputs are `proposer`, governance's votes `voter`, authz's grants `granter` and its execs `grantee`.
const SIGNER_FIELDS = [
  'sender',
  'from_address',
  'signer',
  'delegator_address',
  'creator',
  'owner',
  'proposer',
  'challenger',
  'voter',
  'depositor',
  'granter',
  'grantee',
];

/** The first message's sender, as the account a person looks for. */
export function txSigner(tx) {
  const msg = tx?.tx?.body?.messages?.[0] ?? {};
  for (const field of SIGNER_FIELDS) if (typeof msg[field] === 'string') return msg[field];
  return undefined;
}

/** `MsgCall +2`: the first message's type name and how many more there are. */
export function txKind(tx) {
  const msgs = tx?.tx?.body?.messages ?? [];
  if (msgs.length === 0) return '–';
  const name = String(msgs[0]['@type'] ?? '')
    .split('.')
    .pop();
  return msgs.length > 1 ? `${name} +${msgs.length - 1}` : name;
}

export function txResult(tx) {
  return tx.code === 0 ? badge('success', 'ok') : badge(`failed · code ${tx.code}`, 'bad');
}

/** Columns of a tx list. */
export function txColumns(chainId) {
  return [
    { title: 'Hash', width: '18%', cell: (t) => txLink(chainId, t.txhash, short(t.txhash, 6, 4)) },
    {
      title: 'Height',
      class: 'num',
      width: '13%',
      cell: (t) => link(blockPath(chainId, t.height), Number(t.height).toLocaleString('en-US')),
    },
    { title: 'Type', width: '19%', cell: (t) => txKind(t) },
    {
      title: 'Signer',
      width: '24%',
      cell: (t) => accountLink(chainId, txSigner(t), short(txSigner(t), 9, 4)),
    },
    { title: 'Result', width: '26%', cell: txResult },
  ];
}

/** Newer/Older buttons over a list API: `onPage(key, index)` shows a page and answers `{next, total}`. */
function pager(onPage) {
  const keys = [''];
  let index = 0;
  const prev = h('button', { class: 'secondary', disabled: true, onclick: () => go(index - 1) }, '← Newer');
  const next = h('button', { class: 'secondary', disabled: true, onclick: () => go(index + 1) }, 'Older →');
  const label = h('span', { class: 'muted' });
  async function go(i) {
    index = i;
    prev.disabled = true;
    next.disabled = true;
    const { next: nextKey, total } = await onPage(keys[index], index);
    if (nextKey) keys[index + 1] = nextKey;
    prev.disabled = index === 0;
    next.disabled = !nextKey;
    label.textContent =
      total !== undefined
        ? `page ${index + 1} · ${Number(total).toLocaleString('en-US')} in all`
        : `page ${index + 1}`;
  }
  return { el: h('div', { class: 'pager' }, prev, next, label), start: () => go(0) };
}

/**
 * One paged list of `chainId`'s indexer API at `path`: its table, a line for its errors, and Newer/Older
 * buttons. `rows(answer, page)` picks a page's rows out of an answer; `onError(problem, err)` says
 * what went wrong (default: the API's message).
 */
export function indexerPages(ctx, chainId, path, options) {
  const { columns, empty, rows, limit = 20, params = {}, onError = showError } = options;
  const list = liveTable(columns, { empty });
  const problem = h('div');
  const paging = pager(async (key, page) => {
    try {
      const query = { 'pagination.limit': limit, 'pagination.key': key, ...params };
      const answer = await indexer(chainId, path, query, ctx.signal);
      list.set(rows(answer, page));
      problem.replaceChildren();
      return { next: answer.pagination?.next_key, total: answer.pagination?.total };
    } catch (err) {
      onError(problem, err);
      return {};
    }
  });
  return { list: list.el, problem, pager: paging.el, start: paging.start };
}
