import type { FastifyError, FastifyInstance } from 'fastify';
import { BaseError, BusyError, NotFoundError } from '../common/errors.js';
import { type AjvIssue, echo, errorBody, validationMessage } from '../common/http.js';
import { MAX_OFFSET } from './limits.js';

/** A route this chain does not serve (EVM routes on Move, the rich list on Wasm, …). */
export class NotServedError extends NotFoundError {
  constructor(message: string) {
    super(message, 'WEFT_ERR_NOT_SERVED');
  }
}

/** The store answers but holds no weft schema yet (the indexer has not migrated it). */
export const UNDEFINED_TABLE = '42P01';

/** Readable rules for the parameters whose schema errors would otherwise read like Ajv internals. */
export const RULES: Record<string, string> = {
  'pagination.limit': 'must be an integer from 1 to 1000',
  'pagination.offset': `must be an integer from 0 to ${MAX_OFFSET}; walk further with pagination.key`,
  'pagination.count_total': 'must be true or false',
  'pagination.reverse': 'must be true or false',
  is_signer: 'must be true or false',
  order_by: 'must be one of: token_id, height',
  height: 'must be a positive integer',
};

interface Classified {
  status: number;
  message: string;
  internal: boolean;
  grpcCode?: number;
}

function classify(err: unknown): Classified {
  if (err instanceof BaseError) {
    return {
      status: err.status,
      message: err.message,
      internal: err.status >= 500 && err.status !== 503,
      grpcCode: err.grpcCode,
    };
  }
  const fastifyError = err as FastifyError & { validation?: AjvIssue[] };
  if (fastifyError.validation)
    return { status: 400, message: validationMessage(fastifyError.validation, RULES), internal: false };
  if ((err as { code?: unknown }).code === UNDEFINED_TABLE) {
    return {
      status: 503,
      message: 'the store holds no indexed data yet (its schema is not migrated)',
      internal: false,
    };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, message: fastifyError.message, internal: false };
  }
  return { status: 500, message: 'internal error', internal: true };
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const { status, message, internal, grpcCode } = classify(err);
    if (internal) request.log.error({ err }, 'request failed');
    else if (status >= 500 && !(err instanceof BusyError))
      request.log.warn({ err: message }, 'request not served');
    if (err instanceof BusyError) void reply.header('retry-after', String(err.retryAfterSeconds));
    void reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(errorBody(status, message, grpcCode));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    void reply.code(404).send(errorBody(404, `no route ${request.method} ${echo(path)}`));
  });
}
