import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { GrpcCode } from './errors.js';

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

/** Values longer than this are cut in messages so a huge parameter does not echo back whole. */
const ECHO_LIMIT = 80;

export function echo(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text;
}

export interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
}

/**
 * The first schema issue in words; `rules` says what a parameter must be where Ajv's text would not.
 * `querystring/pagination.limit must be <= 1000` → `invalid value for pagination.limit: 5000 (must be …)`. */
export function validationMessage(issues: AjvIssue[], rules: Record<string, string> = {}): string {
  const issue = issues[0]!;
  const path = issue.instancePath.replace(/^\//, '').replaceAll('~1', '/').replaceAll('~0', '~');
  // A field missing inside an object names the object too (`class_trace/base_class_id`).
  const name =
    issue.keyword === 'required'
      ? [path, String(issue.params.missingProperty)].filter(Boolean).join('/')
      : path;
  const rule = rules[name.replace(/\/\d+$/, '')] ?? issue.message ?? 'is invalid';
  if (issue.keyword === 'required') return `missing ${name}`;
  return `invalid value for ${name}: ${echo(issue.data)} (${rule})`;
}

/** Errors the framework raises before a route runs (a malformed percent-encoding in the path). */
export function frameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).type('application/json; charset=utf-8').send(errorBody(400, err.message));
}
