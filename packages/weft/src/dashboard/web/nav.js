// Navigation inside the dashboard, for pages and the shell alike (the shell renders on `weft:navigate`).

/** Goes to `url` without a reload; `replace` rewrites the current history entry instead (form state). */
export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  if (!replace) window.scrollTo(0, 0);
  window.dispatchEvent(new Event('weft:navigate'));
}
