import { BaseError, GrpcCode } from '../common/errors.js';

/**
 * Router errors answer `{code, message, details}` with the gRPC code Skip's API uses (3 invalid
 * argument, 5 not found), plus the Initia `info` line where it helps (route errors).
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
      grpcCode:
        status === 404 ? GrpcCode.NOT_FOUND : status >= 500 ? GrpcCode.INTERNAL : GrpcCode.INVALID_ARGUMENT,
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
