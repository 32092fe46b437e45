/** A JSON-RPC error as geth's RPC server writes it. */
export class EthRpcError extends Error {
  override name = 'EthRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: string } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** A Go error returned by a method: code -32000 with its text. */
export const serverError = (message: string) => new EthRpcError(-32000, message);
export const invalidParamsError = (message: string) => new EthRpcError(-32602, message);
export const methodNotFoundError = (method: string) =>
  new EthRpcError(-32601, `the method ${method} does not exist/is not available`);
