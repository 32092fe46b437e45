import { invalidArgument } from './gateway-errors.js';

/** The SDK's `PageRequest` from the gateway's query string (`pagination.key`, `.offset`, `.limit`, …). */
export interface PageRequest {
  key?: Uint8Array;
  offset: number;
  limit: number;
  countTotal: boolean;
  reverse: boolean;
}

export interface PageResponse {
  next_key: string | null;
  total: string;
}

export const DEFAULT_LIMIT = 100;

function uint(query: Record<string, unknown>, name: string): number | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  const text = String(Array.isArray(raw) ? raw[0] : raw);
  if (!/^\d+$/.test(text)) {
    throw invalidArgument(
      `type mismatch, parameter: ${name}, error: strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
  return Number(text);
}

function bool(query: Record<string, unknown>, name: string): boolean | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  const text = String(Array.isArray(raw) ? raw[0] : raw);
  if (text !== 'true' && text !== 'false') {
    throw invalidArgument(
      `type mismatch, parameter: ${name}, error: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
  return text === 'true';
}

export function parsePageRequest(query: Record<string, unknown>): PageRequest {
  const keyText = query['pagination.key'];
  let key: Uint8Array | undefined;
  if (typeof keyText === 'string' && keyText !== '') {
    // The gateway takes bytes in a query string as standard or URL-safe base64.
    key = Buffer.from(keyText.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  }
  const limit = uint(query, 'pagination.limit') ?? 0;
  return {
    key,
    offset: uint(query, 'pagination.offset') ?? 0,
    // The SDK counts the total whenever the limit is left to its default.
    limit: limit === 0 ? DEFAULT_LIMIT : limit,
    countTotal: (bool(query, 'pagination.count_total') ?? false) || limit === 0,
    reverse: bool(query, 'pagination.reverse') ?? false,
  };
}

/**
 * One page of items ordered by their store keys, as `query.CollectionPaginate` cuts it: key mode starts at
 * `key` and reports no total; offset mode skips `offset` items and counts the total when asked.
 */
export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => Uint8Array,
  page: PageRequest,
): { items: T[]; pagination: PageResponse } {
  if (page.key && page.offset > 0) {
    throw invalidArgument('invalid request, either offset or key is expected, got both');
  }
  const ordered = page.reverse ? [...items].reverse() : items;
  let start = page.offset;
  if (page.key) {
    const key = Buffer.from(page.key);
    const index = ordered.findIndex((item) => {
      const cmp = Buffer.compare(Buffer.from(keyOf(item)), key);
      return page.reverse ? cmp <= 0 : cmp >= 0;
    });
    start = index === -1 ? ordered.length : index;
  }
  const slice = ordered.slice(start, start + page.limit);
  const next = ordered[start + page.limit];
  return {
    items: slice,
    pagination: {
      next_key: next === undefined ? null : Buffer.from(keyOf(next)).toString('base64'),
      total: page.key || !page.countTotal ? '0' : String(items.length),
    },
  };
}

/** The page of a collection with nothing under the asked prefix, as the gateway's query string asks it. */
export function emptyPage(query: Record<string, unknown>): PageResponse {
  return paginate([], () => new Uint8Array(), parsePageRequest(query)).pagination;
}
