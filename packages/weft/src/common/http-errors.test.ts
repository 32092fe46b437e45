import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  BaseError,
  BusyError,
  InvalidArgumentError,
  NotFoundError,
  QueryTooExpensiveError,
  UpstreamError,
} from './errors.js';
import { errorAnswer, installHttpErrors, validationMessage } from './http-errors.js';

/**
 * The one mapping of weft's error tree and Fastify's errors to HTTP answers (test/api-error-path.test.ts
 * sends the same bad requests to the three APIs that use it).
 */

/** An error of the tree with a client-facing extra line and a time to come back, as the router's carry. */
class LimitedError extends BaseError {
  constructor(readonly retryAfterSeconds: number) {
    super('WEFT_ERR_TEST_LIMIT', 'too many at once', { status: 429, grpcCode: 8, retryable: true });
  }
}
class RouteError extends BaseError {
  readonly info = 'try another denom';
  constructor() {
    super('WEFT_ERR_TEST_ROUTE', 'no route', { status: 404 });
  }
}

const answerOf = (err: unknown) => {
  const { status, body, retryAfterSeconds, log } = errorAnswer(err);
  return { status, code: body.code, message: body.message, retryAfterSeconds, log };
};

describe('errorAnswer', () => {
  it('answers the error tree with its status and gRPC code: 503s are 14 unless the error names another', () => {
    expect(answerOf(new InvalidArgumentError('bad'))).toMatchObject({ status: 400, code: 3, message: 'bad' });
    expect(answerOf(new NotFoundError('gone'))).toMatchObject({ status: 404, code: 5, log: undefined });
    expect(answerOf(new UpstreamError('database unavailable: down'))).toMatchObject({
      status: 503,
      code: 14,
      retryAfterSeconds: undefined,
      log: 'warn',
    });
    expect(answerOf(new BusyError('busy', 2))).toEqual({
      status: 503,
      code: 14,
      message: 'busy',
      retryAfterSeconds: 2,
      log: undefined,
    });
    // A statement timeout: the same request would fail again.
    expect(answerOf(new QueryTooExpensiveError('query too expensive'))).toMatchObject({
      status: 503,
      code: 8,
      log: 'warn',
    });
    const notServed = new BaseError('WEFT_ERR_TEST_NOT_SERVED', 'not served here', { status: 501 });
    expect(answerOf(notServed)).toMatchObject({ status: 501, code: 12, log: undefined });
    expect(answerOf(new LimitedError(30))).toMatchObject({ status: 429, code: 8, retryAfterSeconds: 30 });
    expect(errorAnswer(new RouteError()).body).toEqual({
      code: 5,
      message: 'no route',
      details: [],
      info: 'try another denom',
    });
  });

  it('hides what is not in the tree behind one message, and says so of a store with no schema', () => {
    expect(answerOf(new Error('secret: password=x'))).toEqual({
      status: 500,
      code: 13,
      message: 'internal server error',
      retryAfterSeconds: undefined,
      log: 'error',
    });
    const undefinedTable = Object.assign(new Error('relation "tx" does not exist'), { code: '42P01' });
    expect(answerOf(undefinedTable)).toMatchObject({
      status: 503,
      code: 14,
      message: 'the store holds no indexed data yet (its schema is not migrated)',
    });
  });
});

describe('validationMessage', () => {
  const issue = (instancePath: string, keyword: string, params: Record<string, unknown>, data?: unknown) => ({
    instancePath,
    keyword,
    params,
    data,
    message: keyword === 'type' ? `must be ${String(params.type)}` : 'is wrong',
  });

  it('names the field, the value and the rule', () => {
    expect(validationMessage([issue('/limit', 'type', { type: 'integer' }, 'ten')])).toBe(
      'invalid value for limit: ten (must be integer)',
    );
    expect(
      validationMessage([issue('/pagination.limit', 'maximum', {}, 5000)], {
        'pagination.limit': 'must be an integer from 1 to 1000',
      }),
    ).toBe('invalid value for pagination.limit: 5000 (must be an integer from 1 to 1000)');
    expect(validationMessage([issue('/state', 'enum', { allowedValues: ['A', 'B'] }, 'C')])).toBe(
      'invalid value for state: C (must be one of: A, B)',
    );
    expect(validationMessage([issue('/chain_id', 'minLength', {}, '')])).toBe(
      'invalid value for chain_id: "" (is wrong)',
    );
  });

  it('names a missing field with its object, and a wrong whole by its part', () => {
    expect(validationMessage([issue('', 'required', { missingProperty: 'tx_hash' })])).toBe(
      'missing tx_hash',
    );
    expect(validationMessage([issue('/class_trace', 'required', { missingProperty: 'path' })])).toBe(
      'missing class_trace/path',
    );
    expect(validationMessage([issue('', 'type', { type: 'object' }, [])], {}, 'body')).toBe(
      'invalid value for body: [] (must be object)',
    );
  });
});

describe('installHttpErrors', () => {
  it('answers with Retry-After where the error says when to come back, and JSON for an unknown route', async () => {
    const app = Fastify();
    installHttpErrors(app);
    app.get('/busy', async () => {
      throw new BusyError('the API is busy', 1);
    });
    app.get('/limited', async () => {
      throw new LimitedError(2.5);
    });
    app.get('/down', async () => {
      throw new UpstreamError('database unavailable: down');
    });
    try {
      const busy = await app.inject('/busy');
      expect([busy.statusCode, busy.headers['retry-after'], busy.json()]).toEqual([
        503,
        '1',
        { code: 14, message: 'the API is busy', details: [] },
      ]);
      const limited = await app.inject('/limited');
      expect([limited.statusCode, limited.headers['retry-after']]).toEqual([429, '3']);
      const down = await app.inject('/down');
      expect([down.statusCode, down.headers['retry-after'], down.json().code]).toEqual([503, undefined, 14]);
      const unknown = await app.inject(`/${'x'.repeat(200)}?a=1`);
      expect([unknown.statusCode, unknown.headers['content-type'], unknown.json()]).toEqual([
        404,
        'application/json; charset=utf-8',
        { code: 5, message: `no route GET /${'x'.repeat(79)}…`, details: [] },
      ]);
    } finally {
      await app.close();
    }
  });
});
