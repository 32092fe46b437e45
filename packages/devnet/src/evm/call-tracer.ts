import type { EVMResult, Message } from '@ethereumjs/evm';
import { gethVmError, unpackRevert } from './errors.js';

/**
 * go-ethereum's native `callTracer`, rebuilt from ethereumjs's `beforeMessage`/`afterMessage` events.
 * Field order and omissions follow geth's `callFrame` JSON: `output`, `error`, `revertReason` and
 * `calls` are left out when empty, STATICCALL frames carry no `value`, a failed CREATE loses its `to`.
 */
export interface CallFrameJson {
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrameJson[];
  value?: string;
  type: string;
}

interface OpenFrame {
  type: 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE' | 'CREATE' | 'CREATE2';
  from: Uint8Array;
  to?: Uint8Array;
  value?: bigint;
  gas: bigint;
  input: Uint8Array;
  isStatic: boolean;
  calls: CallFrameJson[];
}

const hex = (bytes: Uint8Array) =>
  `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
const quantity = (value: bigint) => `0x${value.toString(16)}`;

function frameType(message: Message, parentStatic: boolean): OpenFrame['type'] {
  if (message.to === undefined) return message.salt ? 'CREATE2' : 'CREATE';
  if (message.delegatecall) return 'DELEGATECALL';
  if (message._codeAddress !== undefined) return 'CALLCODE';
  // ethereumjs marks every frame under a STATICCALL static; only the one that entered static mode is one.
  return message.isStatic && !parentStatic ? 'STATICCALL' : 'CALL';
}

function openFrame(message: Message, parentStatic: boolean): OpenFrame {
  const type = frameType(message, parentStatic);
  // At this point a creation still carries its init code in `data`.
  const input = message.data;
  // DELEGATECALL and CALLCODE run the code address in the current contract; geth reports the contract
  // as `from` and the code address as `to`.
  const from = type === 'DELEGATECALL' ? message.to!.bytes : message.caller.bytes;
  const to = type === 'DELEGATECALL' || type === 'CALLCODE' ? message.codeAddress.bytes : message.to?.bytes;
  return {
    type,
    from,
    ...(to ? { to } : {}),
    ...(type === 'STATICCALL' ? {} : { value: message.value }),
    gas: message.gasLimit,
    input,
    isStatic: message.isStatic,
    calls: [],
  };
}

function closeFrame(frame: OpenFrame, result: EVMResult): CallFrameJson {
  const { execResult } = result;
  const failure = execResult.exceptionError?.error;
  // Built in geth's key order; `input` and `type` are filled in below.
  const json = {
    from: hex(frame.from),
    gas: quantity(frame.gas),
    gasUsed: quantity(execResult.executionGasUsed),
  } as CallFrameJson;
  let to = frame.to ?? result.createdAddress?.bytes;
  if (failure && (frame.type === 'CREATE' || frame.type === 'CREATE2')) to = undefined;
  if (to) json.to = hex(to);
  json.input = hex(frame.input);
  const output = execResult.returnValue;
  if (!failure) {
    if (output.length > 0) json.output = hex(output);
  } else {
    if (failure === 'revert' && output.length > 0) json.output = hex(output);
    json.error = gethVmError(failure);
    if (failure === 'revert' && output.length >= 4) {
      const reason = unpackRevert(output);
      if (reason !== undefined) json.revertReason = reason;
    }
  }
  if (frame.calls.length > 0) json.calls = frame.calls;
  if (frame.value !== undefined) json.value = quantity(frame.value);
  json.type = frame.type;
  return json;
}

export interface CallTracer {
  /** Starts recording the next top-level message. */
  start(): void;
  /** Stops recording; returns the top-level frame of what ran since `start`. */
  stop(): CallFrameJson | undefined;
}

/** Attaches to an EVM's message events once; recording is switched on per execution. */
export function createCallTracer(events: {
  on(event: 'beforeMessage', listener: (message: Message) => void): unknown;
  on(event: 'afterMessage', listener: (result: EVMResult) => void): unknown;
}): CallTracer {
  let recording = false;
  const stack: OpenFrame[] = [];
  let top: CallFrameJson | undefined;

  events.on('beforeMessage', (message: Message) => {
    if (!recording) return;
    stack.push(openFrame(message, stack[stack.length - 1]?.isStatic ?? false));
  });
  events.on('afterMessage', (result: EVMResult) => {
    if (!recording) return;
    const frame = stack.pop();
    if (!frame) return;
    const json = closeFrame(frame, result);
    const parent = stack[stack.length - 1];
    if (parent) parent.calls.push(json);
    else top = json;
  });

  return {
    start() {
      recording = true;
      stack.length = 0;
      top = undefined;
    },
    stop() {
      recording = false;
      stack.length = 0;
      const frame = top;
      top = undefined;
      return frame;
    },
  };
}

/** The frame around a whole Cosmos tx that minievm's tracer opens before the ante runs. */
export function txRootFrame(input: {
  gasLimit: bigint;
  gasUsed: bigint;
  calls: CallFrameJson[];
  /** Set when the tx failed with an EVM revert (minievm passes its data to the tracer). */
  revert?: Uint8Array;
}): CallFrameJson {
  const zero = `0x${'0'.repeat(40)}`;
  const root = {
    from: zero,
    gas: quantity(input.gasLimit),
    gasUsed: quantity(input.gasUsed),
    to: zero,
    input: '0x',
  } as CallFrameJson;
  if (input.revert) {
    if (input.revert.length > 0) root.output = hex(input.revert);
    root.error = 'execution reverted';
    const reason = unpackRevert(input.revert);
    if (reason !== undefined) root.revertReason = reason;
  }
  if (input.calls.length > 0) root.calls = input.calls;
  root.type = 'CALL';
  return root;
}
