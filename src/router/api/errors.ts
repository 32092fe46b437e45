import type { FastifyError, FastifyInstance } from 'fastify';
import { BaseError } from '../../common/errors.js';
import { errorBody, validationMessage } from '../../common/http.js';
import { RouterError } from '../errors.js';

interface Answer {
  status: number;
  /** Seconds after which asking again may succeed (`Retry-After`). */
  retryAfterSeconds?: number;
  message: string;
  grpcCode?: number;
  info?: string;
  internal: boolean;
}

function classify(err: unknown): Answer {
  if (err instanceof BaseError) {
    return {
      status: err.status,
      message: err.message,
      grpcCode: err.grpcCode,
      info: err instanceof RouterError ? err.info : undefined,
      retryAfterSeconds: (err as { retryAfterSeconds?: number }).retryAfterSeconds,
      internal: err.status >= 500 && !err.retryable,
    };
  }
  const fastifyError = err as FastifyError & { validation?: Parameters<typeof validationMessage>[0] };
  if (fastifyError.validation)
    return { status: 400, message: validationMessage(fastifyError.validation), internal: false };
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, message: fastifyError.message, internal: false };
  return { status: 500, message: 'internal server error', internal: true };
}

/** Every non-2xx answer is JSON `{code, message, details}` (gRPC code as Skip's API), with `info` on route errors. */
export function installRouterErrors(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const answer = classify(err);
    if (answer.internal) request.log.error({ err }, 'request failed');
    else if (answer.status >= 500) request.log.warn({ err: answer.message }, 'request not served');
    if (answer.retryAfterSeconds !== undefined)
      void reply.header('retry-after', String(Math.max(1, Math.ceil(answer.retryAfterSeconds))));
    void reply
      .code(answer.status)
      .type('application/json; charset=utf-8')
      .send({
        ...errorBody(answer.status, answer.message, answer.grpcCode),
        ...(answer.info ? { info: answer.info } : {}),
      });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!.slice(0, 80);
    void reply.code(404).send(errorBody(404, `no route ${request.method} ${path}`));
  });
}
