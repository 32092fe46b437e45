/**
 * Parsers from PostgreSQL's text output to the JS values both back ends return (see `Db`).
 * Type OIDs are PostgreSQL's fixed built-in ones.
 */
export const Oid = {
  bytea: 17,
  int8: 20,
  int8Array: 1016,
  timestamp: 1114,
  timestamptz: 1184,
  numeric: 1700,
} as const;

/** `2025-08-06 08:45:21.123456+00` → `2025-08-06T08:45:21.123456Z` (microseconds kept, unlike a Date). */
export function parseTimestamp(text: string): string {
  const iso = text.replace(' ', 'T');
  if (iso.endsWith('+00')) return `${iso.slice(0, -3)}Z`;
  // Only reached if a session is not in UTC, or for `timestamp` without zone.
  return /[+-]\d\d$/.test(iso) ? `${iso}:00` : iso;
}

/** `\x0102` → Buffer [1, 2]. */
export function parseBytea(text: string): Buffer {
  return Buffer.from(text.slice(2), 'hex');
}

export function serializeBytea(value: Uint8Array): string {
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
}

/** `{1,2,NULL}` → ['1', '2', null]: int8 arrays keep their elements as decimal strings. */
export function parseInt8Array(text: string): Array<string | null> {
  if (text === '{}') return [];
  return text
    .slice(1, -1)
    .split(',')
    .map((item) => (item === 'NULL' ? null : item));
}
