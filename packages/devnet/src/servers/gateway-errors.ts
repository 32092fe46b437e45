import { GrpcCode } from 'weft/common/errors.js';

/**
 * An error as the Cosmos gRPC gateway answers it: `{"code": <gRPC code>, "message", "details": []}` with
 * the HTTP status grpc-gateway maps the gRPC code to.
 */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly grpcCode: number,
    message: string,
  ) {
    super(message);
  }

  get httpStatus(): number {
    return httpStatusOf(this.grpcCode);
  }

  body(): string {
    return JSON.stringify({ code: this.grpcCode, message: this.message, details: [] });
  }
}

/** grpc-gateway v1 `HTTPStatusFromCode`. */
export function httpStatusOf(code: number): number {
  switch (code) {
    case GrpcCode.OK:
      return 200;
    case GrpcCode.CANCELLED:
      return 408;
    case GrpcCode.INVALID_ARGUMENT:
    case GrpcCode.FAILED_PRECONDITION:
    case GrpcCode.OUT_OF_RANGE:
      return 400;
    case GrpcCode.DEADLINE_EXCEEDED:
      return 504;
    case GrpcCode.NOT_FOUND:
      return 404;
    case GrpcCode.ALREADY_EXISTS:
    case GrpcCode.ABORTED:
      return 409;
    case GrpcCode.PERMISSION_DENIED:
      return 403;
    case 16: // Unauthenticated
      return 401;
    case GrpcCode.RESOURCE_EXHAUSTED:
      return 429;
    case GrpcCode.UNIMPLEMENTED:
      return 501;
    case GrpcCode.UNAVAILABLE:
      return 503;
    default:
      return 500;
  }
}

export const invalidArgument = (message: string) => new GatewayError(GrpcCode.INVALID_ARGUMENT, message);
export const notFound = (message: string) => new GatewayError(GrpcCode.NOT_FOUND, message);
/** A plain Go error that reached gRPC: code Unknown, HTTP 500. */
export const unknownError = (message: string) => new GatewayError(GrpcCode.UNKNOWN, message);
export const notImplemented = () => new GatewayError(GrpcCode.UNIMPLEMENTED, 'Not Implemented');

/**
 * A registered SDK error wrapped with a message, as its `GRPCStatus()` renders it:
 * `codespace <space> code <n>: <registered text>: <message>`.
 */
export function sdkError(
  grpcCode: number,
  codespace: string,
  code: number,
  registered: string,
  message: string,
): GatewayError {
  return new GatewayError(grpcCode, `codespace ${codespace} code ${code}: ${registered}: ${message}`);
}

export const invalidHeight = (message: string) =>
  sdkError(GrpcCode.UNKNOWN, 'sdk', 26, 'invalid height', message);
export const invalidRequest = (message: string) =>
  sdkError(GrpcCode.INVALID_ARGUMENT, 'sdk', 18, 'invalid request', message);
