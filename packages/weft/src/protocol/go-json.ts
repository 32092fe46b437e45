// Go's encoding/json escapes these even inside strings; sdk.MustSortJSON re-marshals with them.
const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON text as Go's encoding/json writes `value`: the packet bytes a Cosmos module signs and hashes
 * (ICS-20 and ICS-721 `GetBytes`). Key order is the caller's: sort the keys first where the module does.
 */
export const goJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);
