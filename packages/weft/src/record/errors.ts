import { BaseError, type BaseErrorOptions } from '../common/errors.js';

/** A recording that cannot be written or read as asked (missing, of another chain, a height it lacks). */
export class RecordingError extends BaseError {
  override name = 'RecordingError';
  constructor(message: string, options: BaseErrorOptions = {}) {
    super('WEFT_ERR_RECORDING', message, options);
  }
}
