import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BaseError, GrpcCode } from './errors.js';
import { echo } from './http.js';

/**
 * weft's one answer to a failed HTTP request, for the indexer API, the router API and the router's
 * tracking routes alike: every non-2xx answer is `{code, message, details}` (the gRPC code, as
 * kvindexer's gateway and Skip's API answer), 400 for bad input, 404 for not found or not served here,
 * 503 while a store or node is unreachable, 500 otherwise. Bodies never carry a stack trace.
 */
export interface ErrorBody {
  code: number;
  message: string;
  details: unknown[];
  /** Initia's extra line on router errors, which InterwovenKit shows under a route error. */
  info?: string;
}

const GRPC_OF_STATUS: Record<number, number> = {
  400: GrpcCode.INVALID_ARGUMENT,
  404: GrpcCode.NOT_FOUND,
  405: GrpcCode.UNIMPLEMENTED,
  413: GrpcCode.INVALID_ARGUMENT,
  414: GrpcCode.INVALID_ARGUMENT,
  415: GrpcCode.INVALID_ARGUMENT,
  429: GrpcCode.RESOURCE_EXHAUSTED,
  501: GrpcCode.UNIMPLEMENTED,
  503: GrpcCode.UNAVAILABLE,
  504: GrpcCode.DEADLINE_EXCEEDED,
};

export function errorBody(status: number, message: string, grpcCode?: number): ErrorBody {
  const code =
    grpcCode ?? GRPC_OF_STATUS[status] ?? (status >= 500 ? GrpcCode.INTERNAL : GrpcCode.INVALID_ARGUMENT);
  return { code, message, details: [] };
}

/** The message of any failure not in weft's error tree: its text may say what only the operator should read. */
export const INTERNAL_MESSAGE = 'internal server error';

/** SQLSTATE of a missing table: the store answers but holds no weft schema yet (nothing migrated it). */
export const UNDEFINED_TABLE = '42P01';

/** Readable rules for the parameters whose schema errors would otherwise read like Ajv's internals. */
export type ParameterRules = Record<string, string>;

export interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
}

/**
 * The first schema issue in words, naming the field; `rules` says what a parameter must be where Ajv's
 * text would not, and `part` (`body`, `querystring`) names a value that is wrong as a whole.
 * `querystring/pagination.limit must be <= 1000` → `invalid value for pagination.limit: 5000 (must be …)`.
 */
export function validationMessage(issues: AjvIssue[], rules: ParameterRules = {}, part = 'body'): string {
  const issue = issues[0]!;
  const path = issue.instancePath.replace(/^\//, '').replaceAll('~1', '/').replaceAll('~0', '~');
  // A field missing inside an object names the object too (`class_trace/base_class_id`).
  if (issue.keyword === 'required')
    return `missing ${[path, String(issue.params.missingProperty)].filter(Boolean).join('/')}`;
  const allowed =
    issue.keyword === 'enum' ? (issue.params.allowedValues as unknown[] | undefined) : undefined;
  const rule =
    rules[path.replace(/\/\d+$/, '')] ??
    (allowed ? `must be one of: ${echo(allowed.join(', '))}` : (issue.message ?? 'is invalid'));
  const value = issue.data === '' ? '""' : echo(issue.data);
  return `invalid value for ${path || part}: ${value} (${rule})`;
}

/** How an answered failure is logged: with its stack (a fault of weft), as a warning (an outage), or not. */
type LogLevel = 'error' | 'warn' | undefined;

export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  /** Seconds after which asking again may succeed (`Retry-After`). */
  retryAfterSeconds?: number;
  log: LogLevel;
}

/** What an error of weft's tree may carry for its answer (BusyError, a router's limits, route errors). */
interface AnswerFields {
  retryAfterSeconds?: unknown;
  info?: unknown;
}

type FrameworkError = FastifyError & { validation?: AjvIssue[]; validationContext?: string };

/** Fastify's own refusals of a request, in weft's words; `path` is the request's, without its query. */
const FRAMEWORK: Record<string, (request: FastifyRequest | undefined, path: string) => [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => [400, 'the body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: () => [400, 'the body is empty: send a JSON object'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => [400, 'the body is not as long as its content-length says'],
  FST_ERR_CTP_BODY_TOO_LARGE: (request) => {
    const limit = request?.routeOptions.bodyLimit;
    return [413, `the body is larger than the ${limit ? `${limit} bytes` : 'size'} this route takes`];
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) => [
    415,
    `unsupported content-type ${echo(request?.headers['content-type'] ?? '')}: send application/json`,
  ],
  FST_ERR_BAD_URL: (_request, path) => [400, `malformed percent-encoding in the path ${echo(path)}`],
  FST_ERR_MAX_PARAM_LENGTH: (_request, path) => [400, `a path parameter is too long in ${echo(path)}`],
};

/** The one mapping of an error (weft's tree, Fastify's, anything thrown) to the HTTP answer. */
export function errorAnswer(err: unknown, request?: FastifyRequest, rules?: ParameterRules): ErrorAnswer {
  if (err instanceof BaseError) {
    const { retryAfterSeconds, info } = err as BaseError & AnswerFields;
    const retryAfter = typeof retryAfterSeconds === 'number' ? retryAfterSeconds : undefined;
    const body = errorBody(err.status, err.message, err.grpcCode);
    if (typeof info === 'string' && info) body.info = info;
    // A fault of weft is logged with its stack, an outage as a warning; a route not implemented is no
    // fault, and a load-shedding answer tells the caller when to come back: neither is logged.
    const outage = err.status === 503 || err.retryable;
    const quiet = err.status < 500 || err.status === 501 || (outage && retryAfter !== undefined);
    const log: LogLevel = quiet ? undefined : outage ? 'warn' : 'error';
    return { status: err.status, body, retryAfterSeconds: retryAfter, log };
  }
  const fastifyError = err as FrameworkError;
  if (fastifyError.validation) {
    const message = validationMessage(fastifyError.validation, rules, fastifyError.validationContext);
    return { status: 400, body: errorBody(400, message), log: undefined };
  }
  if (fastifyError.code === UNDEFINED_TABLE) {
    const message = 'the store holds no indexed data yet (its schema is not migrated)';
    return { status: 503, body: errorBody(503, message), log: 'warn' };
  }
  const framework = FRAMEWORK[fastifyError.code];
  if (framework) {
    const [status, message] = framework(request, request?.url.split('?')[0] ?? '');
    return { status, body: errorBody(status, message), log: undefined };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, body: errorBody(status, fastifyError.message), log: undefined };
  return { status: 500, body: errorBody(500, INTERNAL_MESSAGE), log: 'error' };
}

function send(answer: ErrorAnswer, reply: FastifyReply): void {
  if (answer.retryAfterSeconds !== undefined)
    void reply.header('retry-after', String(Math.max(1, Math.ceil(answer.retryAfterSeconds))));
  void reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

function answer(err: unknown, request: FastifyRequest, reply: FastifyReply, rules?: ParameterRules): void {
  const answered = errorAnswer(err, request, rules);
  if (answered.log === 'error') request.log.error({ err }, 'request failed');
  else if (answered.log === 'warn') request.log.warn({ err: answered.body.message }, 'request not served');
  send(answered, reply);
}

/** Fastify's `frameworkErrors` option: errors raised before a route runs (a malformed path). */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  answer(err, request, reply);
}

/**
 * Installs the error and not-found answers on a server; route plugins it mounts (tracking) answer with
 * them too. `rules` words the schema errors of the server's own parameters.
 */
export function installHttpErrors(app: FastifyInstance, options: { rules?: ParameterRules } = {}): void {
  app.setErrorHandler((err, request, reply) => answer(err, request, reply, options.rules));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    send(
      { status: 404, body: errorBody(404, `no route ${request.method} ${echo(path)}`), log: undefined },
      reply,
    );
  });
}
