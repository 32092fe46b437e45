/** gRPC status codes, used in JSON error bodies (the shape kvindexer's gateway gave its users). */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

export interface BaseErrorOptions {
  cause?: unknown;
  /** HTTP status where the error crosses HTTP. */
  status?: number;
  retryable?: boolean;
  /** gRPC code of the JSON error body; absent: the one of the HTTP status. */
  grpcCode?: number;
  /** What the operator may do about it: printed under the one-line error of the CLI. */
  hint?: string;
}

/** The root of weft's error tree: a stable code, an HTTP status and whether a retry may help. */
export class BaseError extends Error {
  override name = 'BaseError';
  readonly code: string;
  readonly status: number;
  readonly retryable: boolean;
  readonly grpcCode: number | undefined;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: BaseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 500;
    this.retryable = options.retryable ?? false;
    this.grpcCode = options.grpcCode;
    this.hint = options.hint;
  }

  /** Walks the cause chain, returning the first error for which `fn` is true. */
  walk(fn: (err: unknown) => boolean): unknown {
    let err: unknown = this;
    while (err) {
      if (fn(err)) return err;
      err = (err as { cause?: unknown }).cause;
    }
    return undefined;
  }
}

/** An invalid setting: the process stops at start with this one line. */
export class ConfigError extends BaseError {
  override name = 'ConfigError';
  constructor(
    readonly setting: string,
    reason: string,
    options: { hint?: string } = {},
  ) {
    super('WEFT_ERR_CONFIG', `invalid configuration: ${setting}: ${reason}`, { status: 500, ...options });
  }
}

/** Bad input from a caller (HTTP 400). */
export class InvalidArgumentError extends BaseError {
  override name = 'InvalidArgumentError';
  constructor(message: string, code = 'WEFT_ERR_INVALID_ARGUMENT') {
    super(code, message, { status: 400 });
  }
}

export class NotFoundError extends BaseError {
  override name = 'NotFoundError';
  constructor(message: string, code = 'WEFT_ERR_NOT_FOUND') {
    super(code, message, { status: 404 });
  }
}

/** An upstream call that failed in a way a retry may fix (timeouts, 5xx, 429, dropped connections). */
export class UpstreamError extends BaseError {
  override name = 'UpstreamError';
  constructor(message: string, options: BaseErrorOptions & { code?: string } = {}) {
    super(options.code ?? 'WEFT_ERR_UPSTREAM', message, { retryable: true, status: 503, ...options });
  }
}

/** More work than this process takes on right now: the caller should come back (HTTP 503 with Retry-After). */
export class BusyError extends BaseError {
  override name = 'BusyError';
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super('WEFT_ERR_BUSY', message, { status: 503, retryable: true });
  }
}

/** A store query cancelled by the statement timeout: the same request would fail again. */
export class QueryTooExpensiveError extends BaseError {
  override name = 'QueryTooExpensiveError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('WEFT_ERR_QUERY_TOO_EXPENSIVE', message, {
      status: 503,
      grpcCode: GrpcCode.RESOURCE_EXHAUSTED,
      cause: options.cause,
    });
  }
}

export function isRetryable(err: unknown): boolean {
  return err instanceof BaseError && err.retryable;
}

/** The first hint along the cause chain of `err`, if any. */
export function errorHint(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof BaseError && e.hint) return e.hint;
  }
  return undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * `listen()` refused because the port is taken, as an error naming the port and the setting that chose
 * it (`setting`: `--port / PORT`); any other error is returned as it is.
 */
export function portInUse(err: unknown, setting: string): unknown {
  const e = err as { code?: string; port?: number; address?: string; message?: string };
  if (e?.code !== 'EADDRINUSE') return err;
  const where = /(\S+):(\d+)$/.exec(e.message ?? '');
  const port = e.port ?? where?.[2] ?? '?';
  const address = e.address ?? where?.[1];
  return new BaseError(
    'WEFT_ERR_PORT_IN_USE',
    `port ${port}${address ? ` on ${address}` : ''} is already in use (set by ${setting})`,
    {
      cause: err,
      hint: `stop what listens there, or give ${setting} another port (0 picks a free one)`,
    },
  );
}

/** Runs `listen`, turning a taken port into `portInUse`'s error. */
export async function listenOn<T>(setting: string, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (err) {
    throw portInUse(err, setting);
  }
}
