/**
 * The form collection names are searched in (rollytics' normalisation): lowercase, keeping only
 * letters, marks and digits. The store keeps it beside each name; the API normalises the query the
 * same way and matches substrings.
 */
export function collectionNameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, '');
}
