import { decodeAbiParameters } from 'viem';
import { TxError } from '../types.js';

/**
 * The error texts of minievm (x/evm/types/errors.go, jsonrpc/backend) and of go-ethereum's VM and
 * callTracer, for the EVM module and the JSON-RPC surface.
 */

/** Registered x/evm errors (codespace `evm`) the devnet can produce. */
export const EvmErrorCode = {
  evmCallFailed: 3,
  evmCreateFailed: 4,
  invalidDenom: 8,
  invalidRequest: 9,
  reverted: 23,
  invalidValue: 24,
  txConversionFailed: 31,
} as const;

const EVM_ERROR_TEXT: Record<number, string> = {
  3: 'EVMCall failed',
  4: 'EVMCreate failed',
  8: 'Invalid denom',
  9: 'Invalid request',
  23: 'Reverted',
  24: 'Invalid value',
  31: 'Tx conversion failed',
};

/** `errorsmod.Wrap(ErrX, detail)`: `<detail>: <registered text>`. */
export function evmTxError(code: number, detail?: string): TxError {
  const text = EVM_ERROR_TEXT[code] ?? 'unknown';
  return new TxError('evm', code, detail ? `${detail}: ${text}` : text);
}

const PANIC_REASONS: Record<number, string> = {
  0: 'generic panic',
  1: 'assert(false)',
  17: 'arithmetic underflow or overflow',
  18: 'division or modulo by zero',
  33: 'enum overflow',
  34: 'invalid encoded storage byte array accessed',
  49: 'out-of-bounds array access; popping on an empty array',
  50: 'out-of-bounds access of an array or bytesN',
  65: 'out of memory',
  81: 'uninitialized function',
};

/** go-ethereum `abi.UnpackRevert`: the reason of `Error(string)` or `Panic(uint256)` revert data. */
export function unpackRevert(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = Buffer.from(data.subarray(0, 4)).toString('hex');
  const body = `0x${Buffer.from(data.subarray(4)).toString('hex')}` as const;
  try {
    if (selector === '08c379a0') return decodeAbiParameters([{ type: 'string' }], body)[0];
    if (selector === '4e487b71') {
      const code = decodeAbiParameters([{ type: 'uint256' }], body)[0];
      return PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** minievm `RevertError.Error()`: `revert: <reason>: Reverted`, or `Reverted` when the data has no reason. */
export function revertMessage(data: Uint8Array): string {
  const reason = unpackRevert(data);
  return reason === undefined ? EVM_ERROR_TEXT[23]! : `revert: ${reason}: ${EVM_ERROR_TEXT[23]}`;
}

export function revertTxError(data: Uint8Array): TxError {
  return new TxError('evm', EvmErrorCode.reverted, revertMessage(data));
}

/** ethereumjs VM error → go-ethereum's text (core/vm/errors.go), as tracers and error wraps show it. */
export function gethVmError(ethereumjsError: string): string {
  switch (ethereumjsError) {
    case 'revert':
      return 'execution reverted';
    case 'out of gas':
      return 'out of gas';
    case 'code store out of gas':
      return 'contract creation code storage out of gas';
    case 'code size to deposit exceeds maximum code size':
      return 'max code size exceeded';
    case 'initcode exceeds max initcode size':
      return 'max initcode size exceeded';
    case 'stack underflow':
      return 'stack underflow';
    case 'stack overflow':
      return 'stack limit reached 1024 (1023)';
    case 'invalid JUMP':
      return 'invalid jump destination';
    case 'static state change':
      return 'write protection';
    case 'create collision':
      return 'contract address collision';
    case 'insufficient balance':
      return 'insufficient balance for transfer';
    case 'invalid bytecode deployed':
      return 'invalid code: must not begin with 0xef';
    case 'value out of range':
      return 'return data out of bounds';
    default:
      return ethereumjsError;
  }
}

/** Texts the minievm JSON-RPC backend (and go-ethereum, where noted) answers with. */
export const JsonRpcErrorText = {
  genesisNotTraceable: 'genesis is not traceable',
  transactionNotFound: 'transaction not found',
  transactionNotIndexed: 'transaction is not indexed',
  transactionNotInBlock: 'transaction not found in the block',
  unprotectedTx: 'only replay-protected (EIP-155) transactions allowed over RPC',
  stateOverrides: 'state overrides are not supported',
  blockOverrides: 'block overrides are not supported',
  estimateWithoutFrom: 'from address cannot be empty in the estimated gas',
  heightInFuture: 'requested height is greater than the latest block height',
  executionReverted: 'execution reverted',
  /** go-ethereum txpool texts; minievm itself relays the CheckTx log instead (e.g. a sequence mismatch). */
  nonceTooLow: 'nonce too low',
  insufficientFunds: 'insufficient funds for gas * price + value',
} as const;

/** JSON-RPC error codes: go-ethereum's default for server errors, and minievm's typed errors. */
export const JsonRpcErrorCode = {
  server: -32000,
  internal: -32603,
  invalidParams: -32602,
  methodNotFound: -32601,
  /** go-ethereum's code for a reverted eth_call / estimateGas carrying revert data. */
  reverted: 3,
  /** minievm TimeoutError / ReadinessError. */
  timeout: 4,
  readiness: 5,
} as const;

/** minievm `InternalError`: `internal jsonrpc error: <msg>` with code -32603. */
export function internalJsonRpcMessage(msg: string): string {
  return `internal jsonrpc error: ${msg}`;
}
