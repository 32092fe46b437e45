/** A JSON-RPC error as CometBFT's RPC server writes it (`rpc/jsonrpc/types`). */
export class CometRpcError extends Error {
  override name = 'CometRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: string } {
    return this.data
      ? { code: this.code, message: this.message, data: this.data }
      : { code: this.code, message: this.message };
  }
}

/** What a method's Go error becomes: `-32603 Internal error` with the error text as `data`. */
export const internalError = (data: string) => new CometRpcError(-32603, 'Internal error', data);
export const invalidParams = (data: string) => new CometRpcError(-32602, 'Invalid params', data);
export const methodNotFound = () => new CometRpcError(-32601, 'Method not found');
export const invalidRequest = (data: string) => new CometRpcError(-32600, 'Invalid Request', data);
export const parseError = (data: string) => new CometRpcError(-32700, 'Parse error', data);

/** A bad parameter value; the transport adds the "error converting … params to arguments" prefix. */
export class ParamError extends Error {
  override name = 'ParamError';
}
