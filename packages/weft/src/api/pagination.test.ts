import { describe, expect, it } from 'vitest';
import { MAX_OFFSET } from './limits.js';
import { encodeKey, pageRequest, paginationOf, sequenceCursor, tokenCursor } from './pagination.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('pageRequest', () => {
  it('defaults to 100 rows, newest first, with the total', () => {
    expect(pageRequest({}, sequenceCursor)).toEqual({
      after: undefined,
      offset: 0,
      limit: 100,
      descending: true,
      countTotal: true,
    });
  });

  it('reads our keys in standard or URL-safe base64, and applies an offset after the key', () => {
    const key = encodeKey({ sequence: 42 });
    expect(pageRequest({ 'pagination.key': key, 'pagination.offset': 5 }, sequenceCursor)).toMatchObject({
      after: { sequence: 42 },
      offset: 5,
    });
    const token = encodeKey({ tokenId: 'a/b?', height: 3, id: 9 })
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
    expect(pageRequest({ 'pagination.key': token }, tokenCursor).after).toEqual({
      tokenId: 'a/b?',
      height: 3,
      id: 9,
    });
  });

  it('takes a key holding a plain integer as an offset (rollytics offset keys)', () => {
    expect(
      pageRequest({ 'pagination.key': b64('200'), 'pagination.offset': 7 }, sequenceCursor),
    ).toMatchObject({ after: undefined, offset: 200 });
  });

  it('refuses offset keys deeper than the deepest offset', () => {
    expect(pageRequest({ 'pagination.key': b64(String(MAX_OFFSET)) }, sequenceCursor)).toMatchObject({
      offset: MAX_OFFSET,
    });
    expect(() => pageRequest({ 'pagination.key': b64(String(MAX_OFFSET + 1)) }, sequenceCursor)).toThrow(
      /invalid value for pagination.key: .* \(an offset key of at most 100000; walk further with next_key\)/,
    );
  });

  it('refuses keys that are not base64, not JSON, or not this list’s', () => {
    for (const key of [
      'abc!',
      b64('{oops'),
      b64('{"height":3}'),
      b64('{"sequence":-1}'),
      b64('[1]'),
      b64('"x"'),
    ]) {
      expect(() => pageRequest({ 'pagination.key': key }, sequenceCursor)).toThrow(
        /invalid value for pagination.key/,
      );
    }
  });
});

describe('paginationOf', () => {
  it('sets next_key only when another page exists and previous_key only for offset pages', () => {
    const request = pageRequest({ 'pagination.limit': 10, 'pagination.offset': 25 }, sequenceCursor);
    expect(paginationOf({ rows: [], total: '40', next: { sequence: 3 } }, request)).toEqual({
      previous_key: b64('15'),
      next_key: encodeKey({ sequence: 3 }),
      total: '40',
    });
    expect(paginationOf({ rows: [], total: null, next: null }, pageRequest({}, sequenceCursor))).toEqual({
      previous_key: null,
      next_key: null,
      total: '0',
    });
  });
});
