import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BaseError, BusyError, GrpcCode, NotFoundError } from '../common/errors.js';
import { MAX_OFFSET } from './limits.js';

/**
 * Every non-2xx answer is `{code, message, details}` (gRPC code, as kvindexer's gateway answered):
 * 400 for bad input, 404 for not found or not served here, 503 while the store is unreachable,
 * 500 otherwise. Bodies never carry a stack trace.
 */
export interface ErrorBody {
  code: number;
  message: string;
  details: unknown[];
}

const GRPC_OF_STATUS: Record<number, number> = {
  400: GrpcCode.INVALID_ARGUMENT,
  404: GrpcCode.NOT_FOUND,
  405: GrpcCode.UNIMPLEMENTED,
  413: GrpcCode.INVALID_ARGUMENT,
  414: GrpcCode.INVALID_ARGUMENT,
  415: GrpcCode.INVALID_ARGUMENT,
  429: GrpcCode.RESOURCE_EXHAUSTED,
  503: GrpcCode.UNAVAILABLE,
  504: GrpcCode.DEADLINE_EXCEEDED,
};

export function errorBody(status: number, message: string, grpcCode?: number): ErrorBody {
  const code =
    grpcCode ?? GRPC_OF_STATUS[status] ?? (status >= 500 ? GrpcCode.INTERNAL : GrpcCode.INVALID_ARGUMENT);
  return { code, message, details: [] };
}

/** A route this chain does not serve (EVM routes on Move, the rich list on Wasm, …). */
export class NotServedError extends NotFoundError {
  constructor(message: string) {
    super(message, 'WEFT_ERR_NOT_SERVED');
  }
}

/** The store answers but holds no weft schema yet (the indexer has not migrated it). */
export const UNDEFINED_TABLE = '42P01';

/** Values longer than this are cut in messages so a huge parameter does not echo back whole. */
const ECHO_LIMIT = 80;

export function echo(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text;
}

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

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
}

/** `querystring/pagination.limit must be <= 1000` → `invalid value for pagination.limit: 5000 (must be …)`. */
export function validationMessage(issues: AjvIssue[]): string {
  const issue = issues[0]!;
  const name =
    issue.keyword === 'required'
      ? String(issue.params.missingProperty)
      : issue.instancePath.replace(/^\//, '').replaceAll('~1', '/').replaceAll('~0', '~');
  const rule = RULES[name.replace(/\/\d+$/, '')] ?? issue.message ?? 'is invalid';
  if (issue.keyword === 'required') return `missing ${name}`;
  return `invalid value for ${name}: ${echo(issue.data)} (${rule})`;
}

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
    return { status: 400, message: validationMessage(fastifyError.validation), internal: false };
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

/** Errors the router raises before a route runs (a malformed percent-encoding in the path). */
export function frameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).type('application/json; charset=utf-8').send(errorBody(400, err.message));
}
