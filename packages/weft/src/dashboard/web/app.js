// The dashboard's shell: reads its configuration, maps each URL to a page, and runs the page's
// polling until the next navigation. Every page has a URL of its own (history API, no hash).
import { loadConfig, routerUrl } from './api.js';
import { navigate } from './nav.js';
import { h, showError, state } from './ui.js';

const pages = [
  [/^\/$/, 'network', () => import('./pages/network.js')],
  [/^\/chains\/([^/]+)$/, 'network', () => import('./pages/chain.js')],
  [/^\/chains\/([^/]+)\/blocks\/(\d+)$/, 'network', () => import('./pages/block.js')],
  [/^\/chains\/([^/]+)\/txs\/([^/]+)$/, 'network', () => import('./pages/tx.js')],
  [/^\/chains\/([^/]+)\/accounts\/([^/]+)$/, 'network', () => import('./pages/account.js')],
  [/^\/chains\/([^/]+)\/nfts$/, 'network', () => import('./pages/nfts.js')],
  [/^\/chains\/([^/]+)\/nfts\/([^/]+)$/, 'network', () => import('./pages/collection.js')],
  [/^\/chains\/([^/]+)\/richlist$/, 'network', () => import('./pages/richlist.js')],
  [/^\/transfers$/, 'transfers', () => import('./pages/transfers.js')],
  [/^\/route$/, 'route', () => import('./pages/route.js')],
];

const main = document.getElementById('main');
let current;

/**
 * What a page is given: its URL's parts, where to render, and `every(ms, fn)`, which runs `fn` now
 * and then every `ms` after the previous run ended, until the page is left (its `signal` aborts) or
 * `fn` answers `false`.
 */
function pageContext(params, query) {
  const controller = new AbortController();
  const { signal } = controller;
  const every = (ms, fn) => {
    const tick = async () => {
      if (signal.aborted) return;
      try {
        if ((await fn()) === false) return;
      } catch (err) {
        if (err?.name !== 'AbortError') console.warn(err);
      }
      if (!signal.aborted) setTimeout(tick, document.hidden ? ms * 4 : ms);
    };
    return tick();
  };
  return { main, params, query, signal, every, leave: () => controller.abort() };
}

async function render() {
  current?.leave();
  const path = decodeURI(location.pathname).replace(/\/+$/, '') || '/';
  const match = pages.find(([pattern]) => pattern.test(path));
  for (const a of document.querySelectorAll('.top nav a')) {
    a.classList.toggle('active', match !== undefined && a.dataset.section === match[1]);
  }
  if (!match) {
    main.replaceChildren(state(`No page at ${path}. The network page lists what there is.`, 'error'));
    return;
  }
  const params = path.match(match[0]).slice(1).map(decodeURIComponent);
  const ctx = pageContext(params, new URLSearchParams(location.search));
  current = ctx;
  try {
    const page = await match[2]();
    if (ctx.signal.aborted) return;
    await page.render(ctx);
  } catch (err) {
    if (!ctx.signal.aborted) showError(main, err);
  }
}

document.addEventListener('click', (event) => {
  const a = event.target.closest?.('a[href]');
  if (!a || a.target || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/assets/')) return;
  event.preventDefault();
  if (url.href !== location.href) navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void render());
window.addEventListener('weft:navigate', () => void render());

try {
  const { wallet } = await loadConfig();
  const router = routerUrl();
  const links = [];
  // The wallet page (InterwovenKit) is its own application: a full page load, not a dashboard route.
  if (wallet) links.push(h('a', { href: wallet, target: '_blank', class: 'muted' }, 'Wallet ↗'));
  if (router) {
    links.push(h('a', { href: `${router}/swagger/`, target: '_blank', class: 'muted' }, 'Router API docs ↗'));
  }
  document.getElementById('router-docs').replaceChildren(...links.flatMap((a, i) => (i ? [' · ', a] : [a])));
  await render();
} catch (err) {
  showError(main, err);
}
