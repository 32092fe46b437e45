import { InvalidArgumentError } from '../common/errors.js';
import { echo } from '../common/http.js';
import type { Page, PageRequest } from '../store/read/page.js';
import { DEFAULT_LIMIT, MAX_OFFSET } from './limits.js';
import { asOfHeight } from './response-cache.js';

/**
 * `pagination.*` query parameters. A key is opaque base64: our own keys hold a JSON cursor (e.g.
 * `{"sequence":42}`), and a key that decodes to a plain integer is taken as an offset (rollytics'
 * offset keys). When a cursor key and `pagination.offset` are both given, the cursor positions the
 * page and the offset then skips rows after it.
 */
export interface PaginationQuery {
  'pagination.key'?: string;
  'pagination.offset'?: number;
  'pagination.limit'?: number;
  'pagination.count_total'?: boolean;
  'pagination.reverse'?: boolean;
}

export interface PaginationResponse {
  previous_key: string | null;
  next_key: string | null;
  total: string;
}

/** Reads a decoded JSON cursor, or returns undefined when its fields do not fit the endpoint. */
export type CursorReader<C> = (value: Record<string, unknown>) => C | undefined;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

const badKey = (key: string, reason: string) =>
  new InvalidArgumentError(`invalid value for pagination.key: ${echo(key)} (${reason})`);

function decodeKey<C>(key: string, read: CursorReader<C>): { cursor?: C; offset?: number } {
  const standard = key.replaceAll('-', '+').replaceAll('_', '/');
  if (!BASE64.test(standard)) throw badKey(key, 'must be base64, as returned in pagination.next_key');
  const text = Buffer.from(standard, 'base64').toString('utf8');
  if (/^[0-9]{1,16}$/.test(text)) {
    const offset = Number(text);
    if (Number.isSafeInteger(offset)) return { offset };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badKey(key, 'not a key this API issued');
  }
  const cursor =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? read(value as Record<string, unknown>)
      : undefined;
  if (cursor === undefined) throw badKey(key, 'not a key of this list');
  return { cursor };
}

export function pageRequest<C>(query: PaginationQuery, read: CursorReader<C>): PageRequest<C> {
  const limit = query['pagination.limit'] ?? DEFAULT_LIMIT;
  let offset = query['pagination.offset'] ?? 0;
  let after: C | undefined;
  const key = query['pagination.key'];
  if (key !== undefined && key !== '') {
    const decoded = decodeKey(key, read);
    after = decoded.cursor;
    if (decoded.offset !== undefined) {
      if (decoded.offset > MAX_OFFSET) {
        throw badKey(key, `an offset key of at most ${MAX_OFFSET}; walk further with next_key`);
      }
      offset = decoded.offset;
    }
  }
  return {
    after,
    offset,
    limit,
    descending: query['pagination.reverse'] ?? true,
    countTotal: query['pagination.count_total'] ?? true,
  };
}

export function encodeKey(cursor: unknown): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64');
}

/**
 * The response object: `next_key` only when another page exists, `previous_key` for offset pages
 * (an offset key one page back), `total` as decimal text ("0" when not counted). It carries, unsent,
 * the indexed height the page was read at, for the response cache.
 */
export function paginationOf(
  page: Page<unknown, unknown>,
  request: PageRequest<unknown>,
): PaginationResponse {
  const offsetPage = request.after === undefined && request.offset > 0;
  const pagination = {
    previous_key: offsetPage ? encodeOffset(Math.max(0, request.offset - request.limit)) : null,
    next_key: page.next === null ? null : encodeKey(page.next),
    total: page.total ?? '0',
  };
  return page.height === undefined ? pagination : asOfHeight(pagination, page.height);
}

const encodeOffset = (offset: number) => Buffer.from(String(offset)).toString('base64');

/** The empty page of a list that cannot have rows (e.g. a collection that does not exist). */
export function emptyPage<C>(): Page<never, C> {
  return { rows: [], total: '0', next: null };
}

// Cursor readers of the store's lists.

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export const sequenceCursor: CursorReader<{ sequence: number }> = (v) =>
  isCount(v.sequence) ? { sequence: v.sequence } : undefined;

export const heightCursor: CursorReader<{ height: number }> = (v) =>
  isCount(v.height) ? { height: v.height } : undefined;

export const collectionCursor: CursorReader<{ height: number; id: number }> = (v) =>
  isCount(v.height) && isCount(v.id) ? { height: v.height, id: v.id } : undefined;

export const tokenCursor: CursorReader<{ tokenId: string; height: number; id: number }> = (v) =>
  typeof v.tokenId === 'string' && isCount(v.height) && isCount(v.id)
    ? { tokenId: v.tokenId, height: v.height, id: v.id }
    : undefined;

export const holderCursor: CursorReader<{ amount: string; accountId: number }> = (v) =>
  typeof v.amount === 'string' && /^[0-9]{1,80}$/.test(v.amount) && isCount(v.accountId)
    ? { amount: v.amount, accountId: v.accountId }
    : undefined;
