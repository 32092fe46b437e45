import { NotFoundError } from '../common/errors.js';
import type { ParameterRules } from '../common/http-errors.js';
import { MAX_OFFSET } from './limits.js';

/** A route this chain does not serve (EVM routes on Move, the rich list on Wasm, …). */
export class NotServedError extends NotFoundError {
  constructor(message: string) {
    super(message, 'WEFT_ERR_NOT_SERVED');
  }
}

/** Readable rules for the parameters whose schema errors would otherwise read like Ajv internals. */
export const RULES: ParameterRules = {
  'pagination.limit': 'must be an integer from 1 to 1000',
  'pagination.offset': `must be an integer from 0 to ${MAX_OFFSET}; walk further with pagination.key`,
  'pagination.count_total': 'must be true or false',
  'pagination.reverse': 'must be true or false',
  is_signer: 'must be true or false',
  order_by: 'must be one of: token_id, height',
  height: 'must be a positive integer',
};
