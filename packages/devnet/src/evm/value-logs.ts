import type { EVMResult, Message } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';

/** keccak256("Transfer(address,address,uint256)"), the ERC20 event. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const word = (bytes: Uint8Array) => {
  const out = new Uint8Array(32);
  out.set(bytes, 32 - bytes.length);
  return out;
};

export interface ValueTransferLogs {
  /** Logs the value moves of the next execution as Transfers of `token`; absent: logs nothing. */
  start(token: Uint8Array | undefined): void;
  stop(): void;
}

/**
 * minievm keeps native balances in the fee token's ERC20 and moves a message's value with that token, so
 * each move logs a Transfer before the callee runs. Here balances move in the token's storage directly,
 * so the log is put first among the frame's own logs once it succeeds; a frame that reverts loses its
 * logs, this one with them. DELEGATECALL moves nothing; a call to oneself moves nothing either.
 */
export function createValueTransferLogs(events: {
  on(event: 'beforeMessage', listener: (message: Message) => void): unknown;
  on(event: 'afterMessage', listener: (result: EVMResult) => void): unknown;
}): ValueTransferLogs {
  let token: Uint8Array | undefined;
  const open: Array<{ caller: Address; to: Address | undefined; value: bigint } | undefined> = [];

  events.on('beforeMessage', (message: Message) => {
    if (!token) return;
    const moves = message.value > 0n && !message.delegatecall;
    open.push(moves ? { caller: message.caller, to: message.to, value: message.value } : undefined);
  });
  events.on('afterMessage', (result: EVMResult) => {
    if (!token) return;
    const move = open.pop();
    if (!move || result.execResult.exceptionError) return;
    const to = move.to ?? result.createdAddress;
    if (!to || to.equals(move.caller)) return;
    const log: [Uint8Array, Uint8Array[], Uint8Array] = [
      token,
      [Buffer.from(TRANSFER_TOPIC, 'hex'), word(move.caller.bytes), word(to.bytes)],
      word(Buffer.from(move.value.toString(16).padStart(64, '0'), 'hex')),
    ];
    result.execResult.logs = [log, ...(result.execResult.logs ?? [])];
  });

  return {
    start(next) {
      token = next;
      open.length = 0;
    },
    stop() {
      token = undefined;
      open.length = 0;
    },
  };
}
