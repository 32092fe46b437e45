import { goJson } from './go-json.js';

/**
 * ICS-20 `FungibleTokenPacketData` as ibc-go v8 writes and reads it (`modules/apps/transfer/types/packet.go`),
 * and the acknowledgements of `modules/core/04-channel/types/acknowledgement.go`.
 */

export interface FungibleTokenPacketData {
  denom: string;
  amount: string;
  sender: string;
  receiver: string;
  memo: string;
}

/** `GetBytes`: proto JSON with sorted keys; an empty memo is left out. */
export function encodeTransferData(data: FungibleTokenPacketData): Uint8Array {
  const sorted: Record<string, string> = { amount: data.amount, denom: data.denom };
  if (data.memo !== '') sorted.memo = data.memo;
  sorted.receiver = data.receiver;
  sorted.sender = data.sender;
  return new TextEncoder().encode(goJson(sorted));
}

/** Decodes packet data; throws on anything that is not a JSON object of strings. */
export function decodeTransferData(bytes: Uint8Array): FungibleTokenPacketData {
  const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object');
  const fields = raw as Record<string, unknown>;
  const str = (key: string) => {
    const value = fields[key];
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw new Error(`${key} is not a string`);
    return value;
  };
  return {
    denom: str('denom'),
    amount: str('amount'),
    sender: str('sender'),
    receiver: str('receiver'),
    memo: str('memo'),
  };
}

/** `NewResultAcknowledgement([]byte{1})`. */
export const SUCCESS_ACK = new TextEncoder().encode('{"result":"AQ=="}');

/** `NewErrorAcknowledgement(err)`: only the ABCI code of the error travels. */
export const errorAck = (code: number) =>
  new TextEncoder().encode(
    JSON.stringify({ error: `ABCI code: ${code}: error handling packet: see events for details` }),
  );

export interface ParsedAck {
  success: boolean;
  /** The result bytes (base64) or the error text. */
  value: string;
}

export function parseAck(bytes: Uint8Array): ParsedAck {
  const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as { result?: string; error?: string };
  if (typeof raw.result === 'string') return { success: true, value: raw.result };
  if (typeof raw.error === 'string') return { success: false, value: raw.error };
  throw new Error('acknowledgement is neither a result nor an error');
}
