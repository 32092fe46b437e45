import { BaseError, GrpcCode } from '../common/errors.js';

/** The gRPC code Skip's API answers an HTTP status with. */
function grpcCodeOf(status: number): number {
  if (status === 404) return GrpcCode.NOT_FOUND;
  if (status === 429) return GrpcCode.RESOURCE_EXHAUSTED;
  if (status === 503) return GrpcCode.UNAVAILABLE;
  return status >= 500 ? GrpcCode.INTERNAL : GrpcCode.INVALID_ARGUMENT;
}

/**
 * Router errors answer `{code, message, details}` with the gRPC code Skip's API uses (3 invalid
 * argument, 5 not found, 8 too many requests, 14 unavailable), plus the Initia `info` line where it
 * helps (route errors). A 429 or a 503 may succeed when asked again.
 */
export class RouterError extends BaseError {
  override name = 'RouterError';
  constructor(
    code: string,
    message: string,
    status: number,
    readonly info?: string,
  ) {
    super(code, message, {
      status,
      grpcCode: grpcCodeOf(status),
      retryable: status === 429 || status === 503,
    });
  }
}

/** A malformed or unsafe request (HTTP 400, code 3). */
export class RouteRequestError extends RouterError {
  override name = 'RouteRequestError';
  constructor(message: string, info?: string) {
    super('WEFT_ERR_ROUTE_REQUEST', message, 400, info);
  }
}

/** A chain or denom the registry does not know (HTTP 404, code 5). */
export class UnknownAssetError extends RouterError {
  override name = 'UnknownAssetError';
  constructor(message: string, info?: string) {
    super('WEFT_ERR_UNKNOWN_ASSET', message, 404, info);
  }
}

/** No pathway joins the two assets (HTTP 404, code 5). */
export class NoRouteError extends RouterError {
  override name = 'NoRouteError';
  constructor(message: string, info?: string) {
    super('WEFT_ERR_NO_ROUTE', message, 404, info);
  }
}

/** The two assets are different tokens: only a swap would join them, and the router does not swap. */
export class SwapRequiredError extends RouterError {
  override name = 'SwapRequiredError';
  constructor(message: string, info?: string) {
    super('WEFT_ERR_SWAP_REQUIRED', message, 400, info);
  }
}

/** An address of the wrong format for its chain. */
export class AddressError extends RouterError {
  override name = 'AddressError';
  constructor(message: string) {
    super('WEFT_ERR_ADDRESS', message, 400);
  }
}

/**
 * The router could not make sure a hook's signer has an account on the hook chain: the chain's node did
 * not answer, or the funder's tx was refused (HTTP 503, code 14).
 */
export class AccountUnavailableError extends RouterError {
  override name = 'AccountUnavailableError';
  constructor(message: string) {
    super('WEFT_ERR_ACCOUNT_UNAVAILABLE', message, 503);
  }
}

/**
 * More accounts to create than the funder's cap per minute allows (HTTP 429, code 8, with Retry-After):
 * the funder's balance pays for each, so a caller cannot drain it faster than the operator chose.
 */
export class AccountCreationLimitError extends RouterError {
  override name = 'AccountCreationLimitError';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('WEFT_ERR_ACCOUNT_CREATION_LIMIT', message, 429);
  }
}
