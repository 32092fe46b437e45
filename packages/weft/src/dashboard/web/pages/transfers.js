// Transfers: the router's recent tracked transfers, and one transfer (source chain + tx hash) as a
// timeline of its hops, each hop linking to its txs on the chains it touched. Polled until it ends.
import { ApiError, chains, router, routerChainList, stateTone, TERMINAL } from '../api.js';
import { navigate } from '../nav.js';
import { badge, fill, fmt, h, link, liveTable, short, state } from '../ui.js';
import { txLink } from './common.js';

const transferPath = (chainId, txHash) =>
  `/transfers?chain=${encodeURIComponent(chainId)}&tx=${encodeURIComponent(txHash)}`;

const HOP_KINDS = {
  ibc_transfer: ['IBC transfer', 'packet_txs'],
  op_init_transfer: ['OPinit bridge', 'txs'],
  layer_zero_transfer: ['Omnichain (OFT)', 'txs'],
};

function hopItem(event) {
  const [key, body] = Object.entries(event)[0] ?? [];
  const [title, txsKey] = HOP_KINDS[key] ?? [key, 'txs'];
  const txs = Object.entries(body?.[txsKey] ?? {}).filter(([, tx]) => tx?.tx_hash);
  const tone = stateTone(body?.state);
  return h(
    'li',
    { class: 'hop' },
    h('span', { class: `dot ${tone}` }),
    h(
      'div',
      { class: 'hop-title' },
      `${title}: ${body?.from_chain_id ?? body?.src_chain_id ?? '?'} → ${body?.to_chain_id ?? body?.dst_chain_id ?? '?'}`,
    ),
    badge(body?.state ?? 'unknown', tone),
    txs.length
      ? h(
          'ul',
          {},
          ...txs.map(([name, tx]) =>
            h(
              'li',
              {},
              `${name.replace(/_tx$/, '').replace('_', ' ')} on ${tx.chain_id}: `,
              txLink(tx.chain_id, tx.tx_hash),
            ),
          ),
        )
      : h('ul', {}, h('li', {}, 'no tx seen yet')),
  );
}

function statusView(status) {
  const release = status.transfer_asset_release;
  return h(
    'div',
    { class: 'card transfer' },
    h('div', {}, 'State ', badge(status.state, stateTone(status.state), 'transfer-state')),
    h(
      'ol',
      { class: 'timeline', style: 'margin-top:1rem' },
      ...(status.transfer_sequence ?? []).map(hopItem),
    ),
    status.transfer_sequence?.length
      ? null
      : state('The source tx is not in a block yet, or not found: the router keeps looking.'),
    release
      ? h(
          'p',
          {},
          `Asset ${release.released ? 'released' : 'to be released'} on ${release.chain_id}: `,
          h('span', { class: 'mono' }, [release.amount, release.denom].filter(Boolean).join(' ')),
        )
      : null,
    status.error
      ? state(`${status.error.code ?? ''} ${status.error.message ?? JSON.stringify(status.error)}`, 'error')
      : null,
  );
}

async function followTransfer(ctx, chainId, txHash, box) {
  let tracked = false;
  await ctx.every(1500, async () => {
    try {
      const status = await router('/v2/tx/status', {
        params: { chain_id: chainId, tx_hash: txHash },
        signal: ctx.signal,
      });
      box.replaceChildren(statusView(status));
      return !TERMINAL.has(status.state);
    } catch (err) {
      if (err?.name === 'AbortError') throw err;
      if (!(err instanceof ApiError) || err.status !== 404 || tracked) {
        box.replaceChildren(state(err.message, 'error'));
        return true;
      }
      const track = h(
        'button',
        {
          onclick: async () => {
            track.disabled = true;
            try {
              await router('/v2/tx/track', {
                body: { chain_id: chainId, tx_hash: txHash },
                signal: ctx.signal,
              });
              tracked = true;
              box.replaceChildren(state('Tracking: the first status shows in a moment.'));
            } catch (trackErr) {
              box.replaceChildren(state(trackErr.message, 'error'));
            }
          },
        },
        'Track it',
      );
      box.replaceChildren(
        h('div', { class: 'state' }, `The router does not track ${txHash} on ${chainId}. `, track),
      );
      return true;
    }
  });
}

async function lookupForm(ctx) {
  let options = chains().map((c) => c.chain_id);
  try {
    options = [...new Set([...options, ...(await routerChainList()).map((c) => c.chain_id)])];
  } catch {
    // The configured chains are enough to ask.
  }
  const chain = h(
    'select',
    { name: 'chain' },
    ...options.map((id) => h('option', { value: id, selected: id === ctx.query.get('chain') }, id)),
  );
  const tx = h('input', {
    name: 'tx',
    class: 'wide',
    value: ctx.query.get('tx') ?? '',
    placeholder: 'Source tx hash',
    required: true,
  });
  return h(
    'form',
    {
      class: 'inline',
      onsubmit: (e) => {
        e.preventDefault();
        navigate(transferPath(chain.value, tx.value.trim()));
      },
    },
    h('label', {}, 'Source chain', chain),
    h('label', {}, 'Tx hash', tx),
    h('button', { type: 'submit' }, 'Show'),
  );
}

async function recentList(ctx) {
  const list = liveTable(
    [
      { title: 'Registered', width: '22%', cell: (t) => fmt.time(t.created_at) },
      { title: 'Source chain', width: '18%', cell: (t) => t.chain_id },
      {
        title: 'Source tx',
        width: '32%',
        cell: (t) => link(transferPath(t.chain_id, t.tx_hash), short(t.tx_hash, 12, 8)),
      },
      { title: 'State', width: '28%', cell: (t) => badge(t.state, stateTone(t.state)) },
    ],
    { minRows: 15, empty: 'The router tracks no transfer yet.' },
  );
  const problem = h('div');
  const section = h('section', { class: 'recent' }, h('h2', {}, 'Recent transfers'), problem, list.el);
  const poll = ctx.every(3000, async () => {
    try {
      const r = await router('/v2/tx/recent', { params: { limit: 15 }, signal: ctx.signal });
      problem.replaceChildren();
      list.set(r.transfers);
    } catch (err) {
      if (err?.name === 'AbortError') throw err;
      problem.replaceChildren(state(err.message, 'error'));
    }
  });
  return { section, poll };
}

export async function render(ctx) {
  const chainId = ctx.query.get('chain');
  const txHash = ctx.query.get('tx');
  const form = await lookupForm(ctx);
  const box = h('div');
  const recent = await recentList(ctx);
  fill(
    ctx.main,
    h('h1', {}, 'Transfers'),
    h('p', { class: 'sub' }, "The router's status of a transfer, by its source chain and tx hash."),
    form,
    chainId && txHash ? h('section', {}, h('h2', {}, 'Transfer ', short(txHash, 12, 8)), box) : null,
    recent.section,
  );
  if (chainId && txHash) {
    box.replaceChildren(state('Asking the router…'));
    void followTransfer(ctx, chainId, txHash, box);
  }
  await recent.poll;
}
