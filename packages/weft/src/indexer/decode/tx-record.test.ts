import { describe, expect, it } from 'vitest';
import { canonicalTime, eventsJson, sanitizeJson } from './tx-record.js';

describe('tx record pieces', () => {
  it("writes times as Go's RFC3339Nano", () => {
    expect(canonicalTime('2026-01-01T00:00:01.123456700Z')).toBe('2026-01-01T00:00:01.1234567Z');
    expect(canonicalTime('2026-01-01T00:00:01.000000000Z')).toBe('2026-01-01T00:00:01Z');
    expect(canonicalTime('2026-01-01T00:00:01Z')).toBe('2026-01-01T00:00:01Z');
  });

  it('replaces NULs and escaped NULs everywhere, keys included, and keeps clean values as they are', () => {
    const clean = { a: ['x', { b: 'y' }] };
    expect(sanitizeJson(clean)).toBe(clean);
    expect(sanitizeJson({ 'k\u0000': ['a\u0000', { b: 'c\\u0000' }], n: 1 })).toEqual({
      'k\uFFFD': ['a\uFFFD', { b: 'c\\uFFFD' }],
      n: 1,
    });
  });

  it('omits empty types, attributes, keys and values and false indexes', () => {
    expect(
      eventsJson([
        { type: '', attributes: [] },
        {
          type: 't',
          attributes: [
            { key: '', value: 'v', index: true },
            { key: 'k', value: '' },
          ],
        },
      ]),
    ).toEqual([{}, { type: 't', attributes: [{ value: 'v', index: true }, { key: 'k' }] }]);
  });
});
