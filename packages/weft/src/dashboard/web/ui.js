// DOM helpers shared by the pages: elements, links, live tables that keep their height, states, formats.

/** `h('a', {href: '/x', class: 'mono'}, 'text', child)`: an element; `on*` attributes add listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  el.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return el;
}

/** A link inside the dashboard (navigated without reloading) or, with `external`, to another site. */
export function link(href, text, attrs = {}) {
  return h('a', { href, ...attrs }, text ?? href);
}

/** A shortened hash or address (full value in the tooltip). */
export function short(value, head = 8, tail = 6) {
  const s = String(value ?? '');
  if (s.length <= head + tail + 1) return h('span', { class: 'mono', title: s }, s);
  return h('span', { class: 'mono', title: s }, `${s.slice(0, head)}…${s.slice(-tail)}`);
}

export const fmt = {
  int: (n) => (n === undefined || n === null || n === '' ? '–' : Number(n).toLocaleString('en-US')),
  time: (iso) =>
    iso
      ? new Date(iso)
          .toISOString()
          .replace('T', ' ')
          .replace(/\.\d+Z$/, ' UTC')
      : '–',
  /** Base units with `decimals` as a decimal number, grouped, trailing zeros dropped. */
  amount(raw, decimals = 0) {
    let s = String(raw ?? '0');
    if (!/^\d+$/.test(s)) return s;
    if (!decimals) return BigInt(s).toLocaleString('en-US');
    s = s.padStart(decimals + 1, '0');
    const whole = BigInt(s.slice(0, -decimals)).toLocaleString('en-US');
    // Six places at most: the exact amount is in the API's answer.
    const frac = s.slice(-decimals, s.length - decimals + 6).replace(/0+$/, '');
    return frac ? `${whole}.${frac}` : whole;
  },
  hexInt: (hex) => Number.parseInt(hex, 16) || 0,
};

/** A badge whose colour follows a state: `ok`, `warn`, `bad` or neutral. */
export function badge(text, tone = '', extra = '') {
  return h('span', { class: `badge ${tone} ${extra}`.trim() }, text);
}

/** What a page shows while loading, when a list is empty, or when an API answered an error. */
export function state(message, kind = '') {
  return h('p', { class: `state ${kind}`.trim(), role: kind === 'error' ? 'alert' : undefined }, message);
}

/** Replaces `el`'s children with those given, leaving out the absent ones (`null`, `false`). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
}

/** A term/description list of `[label, value]` pairs; values may be nodes. */
export function kv(pairs) {
  return h(
    'dl',
    { class: 'kv' },
    ...pairs.filter(Boolean).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '–')]),
  );
}

/** Collapsed JSON of a record, for what the page does not lay out. */
export function rawJson(summary, value) {
  return h('details', {}, h('summary', {}, summary), h('pre', {}, JSON.stringify(value, null, 2)));
}

/**
 * What a table cell shows whole on hover, cut short as it may be at its column's width: its text, when
 * it is one line of text without a tooltip of its own (`short` values carry theirs).
 */
function cellTooltip(content) {
  if (typeof content === 'string') return content;
  if (content.title || content.children?.length) return '';
  return content.textContent ?? '';
}

/**
 * A table that keeps `minRows` rows (blank ones while there are fewer) so the page does not jump as
 * rows arrive; `set(rows)` replaces its body, `empty` is shown in place of a body with no row.
 * Columns: `{ title, cell: (row) => node|string, class?, width? }`.
 */
export function liveTable(columns, { minRows = 0, empty = 'Nothing yet.' } = {}) {
  const colgroup = h(
    'colgroup',
    {},
    ...columns.map((c) => h('col', { style: c.width ? `width:${c.width}` : undefined })),
  );
  const head = h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { class: c.class }, c.title))));
  const body = h('tbody');
  const table = h('table', {}, colgroup, head, body);
  const wrap = h('div', { class: 'table-wrap' }, table);
  const set = (rows) => {
    const trs = rows.map((row) =>
      h(
        'tr',
        {},
        ...columns.map((c) => {
          const content = c.cell(row) ?? '–';
          return h('td', { class: c.class, title: cellTooltip(content) || undefined }, content);
        }),
      ),
    );
    if (rows.length === 0) {
      trs.push(h('tr', { class: 'empty' }, h('td', { colspan: columns.length, class: 'muted' }, empty)));
    }
    while (trs.length < minRows) {
      trs.push(h('tr', { class: 'placeholder' }, ...columns.map(() => h('td', {}, '.'))));
    }
    body.replaceChildren(...trs);
  };
  set([]);
  if (minRows === 0) body.replaceChildren();
  return { el: wrap, set };
}

/** Puts `error` in `target` as one clear line: what failed and what the API said. */
export function showError(target, error) {
  target.replaceChildren(state(error?.message ?? String(error), 'error'));
}
