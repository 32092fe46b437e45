// Ask the router for a route between two assets: its operations, fees and duration. The form's values
// are the page's URL, so a route can be shared.
import { chains, router, routerAssets, routerChainList } from '../api.js';
import { navigate } from '../nav.js';
import { badge, fill, fmt, h, kv, rawJson, state } from '../ui.js';

const OP_NAMES = {
  transfer: 'IBC transfer',
  op_init_transfer: 'OPinit bridge',
  layer_zero_transfer: 'Omnichain (OFT)',
  bank_send: 'Bank send',
  evm_swap: 'EVM swap',
  swap: 'Swap',
};

/** Decimal text in whole units → base units, or undefined when it is not a number. */
function toBase(text, decimals) {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(String(text).trim());
  if (!m || (m[1] === '' && !m[2])) return undefined;
  const frac = (m[2] ?? '').slice(0, decimals).padEnd(decimals, '0');
  return (BigInt(m[1] || '0') * 10n ** BigInt(decimals) + BigInt(frac || '0')).toString();
}

async function assetPicker(name, chainId, selected) {
  const assets = chainId ? await routerAssets(chainId).catch(() => []) : [];
  return {
    assets,
    el: h(
      'select',
      { name },
      ...assets.map((a) =>
        h(
          'option',
          { value: a.denom, selected: a.denom === selected },
          `${a.symbol || a.denom} · ${a.denom}`,
        ),
      ),
    ),
  };
}

function operationItem(op) {
  const [key, body] =
    Object.entries(op).find(([k]) => !['tx_index', 'amount_in', 'amount_out'].includes(k)) ?? [];
  return h(
    'li',
    { class: 'operation' },
    h('strong', {}, OP_NAMES[key] ?? key),
    ' ',
    h(
      'span',
      {},
      `${body?.from_chain_id ?? body?.chain_id ?? ''} → ${body?.to_chain_id ?? body?.chain_id ?? ''}`,
    ),
    h('div', { class: 'muted mono' }, `${body?.denom_in ?? ''} → ${body?.denom_out ?? ''}`),
    h('div', { class: 'muted' }, `tx ${op.tx_index} · ${op.amount_in} in · ${op.amount_out} out`),
  );
}

function routeView(route, decimalsIn, decimalsOut) {
  const fees = route.estimated_fees ?? [];
  return h(
    'section',
    { class: 'card route-result' },
    kv([
      [
        'Amount in',
        `${fmt.amount(route.amount_in, decimalsIn)} (${route.source_asset_denom} on ${route.source_asset_chain_id})`,
      ],
      [
        'Amount out',
        `${fmt.amount(route.amount_out, decimalsOut)} (${route.dest_asset_denom} on ${route.dest_asset_chain_id})`,
      ],
      ['Duration', `about ${fmt.int(route.estimated_route_duration_seconds)} s`],
      ['Txs to sign', fmt.int(route.txs_required)],
      ['Chains', route.chain_ids.join(' → ')],
      [
        'Fees',
        fees.length
          ? h(
              'ul',
              {},
              ...fees.map((f) =>
                h(
                  'li',
                  {},
                  `${f.fee_type ?? 'fee'} ${f.amount} ${f.origin_asset?.denom ?? ''} on ${f.chain_id ?? ''}`,
                ),
              ),
            )
          : 'no bridge fee',
      ],
      route.required_op_hook ? ['Op hook', badge('required: sign the hook first', 'warn')] : null,
    ]),
    h('h2', {}, `Operations (${route.operations.length})`),
    h('ol', { class: 'ops' }, ...route.operations.map(operationItem)),
    ...(route.extra_warnings ?? []).map((w) => state(String(w), 'error')),
    rawJson('The route as the router answered it', route),
  );
}

export async function render(ctx) {
  const q = ctx.query;
  let chainIds = chains().map((c) => c.chain_id);
  try {
    chainIds = (await routerChainList()).map((c) => c.chain_id);
  } catch (err) {
    fill(ctx.main, h('h1', {}, 'Route'), state(`The route form needs the router: ${err.message}`, 'error'));
    return;
  }
  const srcChain = q.get('src_chain') ?? chainIds[0];
  const dstChain = q.get('dst_chain') ?? chainIds[1] ?? chainIds[0];
  const src = await assetPicker('src_denom', srcChain, q.get('src_denom'));
  const dst = await assetPicker('dst_denom', dstChain, q.get('dst_denom'));
  // Another chain lists other assets: the page is drawn again for it, keeping the rest of the form.
  const chainSelect = (name, value) =>
    h(
      'select',
      {
        name,
        onchange: (e) => {
          const params = new URLSearchParams(new FormData(form));
          params.set(name, e.target.value);
          params.delete(name === 'src_chain' ? 'src_denom' : 'dst_denom');
          navigate(`/route?${params}`, { replace: true });
        },
      },
      ...chainIds.map((id) => h('option', { value: id, selected: id === value }, id)),
    );
  const amount = h('input', {
    name: 'amount',
    value: q.get('amount') ?? '1',
    inputmode: 'decimal',
    style: 'width:9rem',
  });
  const form = h(
    'form',
    {
      class: 'inline route-form',
      onsubmit: (e) => {
        e.preventDefault();
        navigate(`/route?${new URLSearchParams(new FormData(form))}`);
      },
    },
    h('label', {}, 'From chain', chainSelect('src_chain', srcChain)),
    h('label', {}, 'Asset', src.el),
    h('label', {}, 'To chain', chainSelect('dst_chain', dstChain)),
    h('label', {}, 'Asset', dst.el),
    h('label', {}, 'Amount', amount),
    h('button', { type: 'submit' }, 'Find route'),
  );
  const result = h('div');
  fill(
    ctx.main,
    h('h1', {}, 'Route'),
    h(
      'p',
      { class: 'sub' },
      'What the router would do to move an asset between two chains; nothing is signed or sent.',
    ),
    form,
    h('h2', {}, 'Result'),
    result,
  );
  const ready = q.get('src_denom') && q.get('dst_denom') && q.get('amount');
  if (!ready) {
    result.replaceChildren(state('Pick two assets and an amount.'));
    return;
  }
  const decimalsIn = src.assets.find((a) => a.denom === q.get('src_denom'))?.decimals ?? 0;
  const decimalsOut = dst.assets.find((a) => a.denom === q.get('dst_denom'))?.decimals ?? 0;
  const amountIn = toBase(q.get('amount'), decimalsIn);
  if (!amountIn || amountIn === '0') {
    result.replaceChildren(state(`"${q.get('amount')}" is not a positive amount.`, 'error'));
    return;
  }
  result.replaceChildren(state('Asking the router…'));
  try {
    const route = await router('/v2/fungible/route', {
      body: {
        amount_in: amountIn,
        source_asset_chain_id: srcChain,
        source_asset_denom: q.get('src_denom'),
        dest_asset_chain_id: dstChain,
        dest_asset_denom: q.get('dst_denom'),
        allow_multi_tx: true,
      },
      signal: ctx.signal,
    });
    result.replaceChildren(routeView(route, decimalsIn, decimalsOut));
  } catch (err) {
    if (err?.name !== 'AbortError') result.replaceChildren(state(`No route: ${err.message}`, 'error'));
  }
}
