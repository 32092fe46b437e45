import { describe, expect, it } from 'vitest';
import { GatewayError } from './gateway-errors.js';
import { paginate, parsePageRequest } from './pagination.js';

const items = ['a', 'b', 'c', 'd', 'e'];
const keyOf = (item: string) => Buffer.from(item);
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('paginate', () => {
  it('pages by offset and counts the total when the limit is left to its default', () => {
    expect(paginate(items, keyOf, parsePageRequest({}))).toEqual({
      items,
      pagination: { next_key: null, total: '5' },
    });
    expect(
      paginate(items, keyOf, parsePageRequest({ 'pagination.limit': '2', 'pagination.offset': '1' })),
    ).toEqual({
      items: ['b', 'c'],
      pagination: { next_key: b64('d'), total: '0' },
    });
    expect(
      paginate(items, keyOf, parsePageRequest({ 'pagination.limit': '2', 'pagination.count_total': 'true' }))
        .pagination,
    ).toEqual({ next_key: b64('c'), total: '5' });
  });

  it('continues from next_key, and goes backwards when reversed', () => {
    const first = paginate(items, keyOf, parsePageRequest({ 'pagination.limit': '2' }));
    const second = paginate(
      items,
      keyOf,
      parsePageRequest({ 'pagination.limit': '2', 'pagination.key': first.pagination.next_key }),
    );
    expect(second.items).toEqual(['c', 'd']);
    expect(
      paginate(items, keyOf, parsePageRequest({ 'pagination.limit': '2', 'pagination.reverse': 'true' }))
        .items,
    ).toEqual(['e', 'd']);
  });

  it('refuses a key and an offset together, and malformed numbers, as the gateway does', () => {
    expect(() =>
      paginate(items, keyOf, parsePageRequest({ 'pagination.key': b64('b'), 'pagination.offset': '1' })),
    ).toThrow('either offset or key is expected, got both');
    expect(() => parsePageRequest({ 'pagination.limit': 'ten' })).toThrow(GatewayError);
  });
});
