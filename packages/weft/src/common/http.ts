/** Values longer than this are cut in messages so a huge parameter does not echo back whole. */
const ECHO_LIMIT = 80;

/** A value a caller sent, as an answer's message quotes it: cut at 80 characters. */
export function echo(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text;
}
