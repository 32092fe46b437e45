import { BaseError } from '../../common/errors.js';

/** Node data the decoder cannot make sense of (a malformed tx, results that do not match the block). */
export class DecodeError extends BaseError {
  override name = 'DecodeError';
  constructor(
    readonly height: number,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super('WEFT_ERR_DECODE', `height ${height}: ${message}`, { ...options, retryable: false });
  }
}

/** The bundle lacks the answer to a metadata request the decoder asked for: a fetch-stage bug. */
export class MissingMetaError extends BaseError {
  override name = 'MissingMetaError';
  constructor(
    readonly height: number,
    readonly key: string,
  ) {
    super('WEFT_ERR_DECODE_META', `height ${height}: no answer for metadata request ${key}`, {
      retryable: false,
    });
  }
}
