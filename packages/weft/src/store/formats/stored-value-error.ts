import { BaseError } from '../../common/errors.js';

/** What a stored value is, as its errors name it. */
export type StoredKind = 'record' | 'call frames';

/**
 * A stored value this weft cannot read: a format it does not know (`WEFT_ERR_STORE_FORMAT_UNKNOWN`:
 * a newer weft wrote it) or bytes its format does not allow (`WEFT_ERR_STORE_VALUE_MALFORMED`).
 * Neither goes away on retry.
 */
export class StoredValueError extends BaseError {
  override name = 'StoredValueError';

  constructor(
    readonly kind: StoredKind,
    code: 'WEFT_ERR_STORE_FORMAT_UNKNOWN' | 'WEFT_ERR_STORE_VALUE_MALFORMED',
    message: string,
    options: { cause?: unknown; hint?: string } = {},
  ) {
    super(code, message, { status: 500, ...options });
  }
}

/** The value's first byte names a format this weft does not read. */
export const unknownFormat = (kind: StoredKind, format: number | undefined) =>
  new StoredValueError(kind, 'WEFT_ERR_STORE_FORMAT_UNKNOWN', `stored ${kind} of unknown format ${format}`, {
    hint: 'a newer weft wrote this store: read it with that version or a later one',
  });

export const malformed = (kind: StoredKind, reason: string, cause?: unknown) =>
  new StoredValueError(kind, 'WEFT_ERR_STORE_VALUE_MALFORMED', `stored ${kind} ${reason}`, { cause });
