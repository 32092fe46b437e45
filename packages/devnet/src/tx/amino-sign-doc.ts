import type { AnyMsg } from '../types.js';
import type { Fee } from './codec.js';

/**
 * The sign bytes of SIGN_MODE_LEGACY_AMINO_JSON and of Initia's SIGN_MODE_EIP_191: the amino JSON
 * `StdSignDoc` a wallet signs, rebuilt from the proto msgs of the tx. Each msg goes to amino through
 * `@initia/amino-converter` (the converters Initia wallets sign with); the document is then serialised
 * with its keys sorted and `&`, `<`, `>` escaped, as cosmjs `serializeSignDoc` and the SDK's amino JSON
 * handler (Go `encoding/json`) both do.
 */

/** What the amino converter package gives: a proto registry and the amino types of every msg it knows. */
interface AminoConverter {
  decode(any: AnyMsg): unknown;
  toAmino(msg: { typeUrl: string; value: unknown }): { type: string; value: unknown };
}

let converter: Promise<AminoConverter> | undefined;

/**
 * The converter package takes about a second to load (it brings its own cosmjs), so it is loaded on
 * the first amino-signed tx rather than at start.
 */
function aminoConverter(): Promise<AminoConverter> {
  converter ??= import('@initia/amino-converter').then((m) => ({
    decode: (any) => m.registry.decode(any),
    toAmino: (msg) => m.aminoTypes.toAmino(msg),
  }));
  return converter;
}

/** A msg the amino converters cannot turn into amino JSON: the tx cannot have been signed over it. */
export class AminoConversionError extends Error {
  override name = 'AminoConversionError';
}

/** Amino JSON of one proto msg: `{"type": <amino name>, "value": {...}}`. */
export async function msgToAmino(msg: AnyMsg): Promise<{ type: string; value: unknown }> {
  const { decode, toAmino } = await aminoConverter();
  try {
    return toAmino({ typeUrl: msg.typeUrl, value: decode(msg) });
  } catch (err) {
    throw new AminoConversionError(
      `unable to convert ${msg.typeUrl} to amino JSON: ${(err as Error).message}`,
    );
  }
}

export interface AminoSignDocInput {
  messages: AnyMsg[];
  memo: string;
  timeoutHeight: bigint;
  fee: Fee;
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
}

/**
 * The `StdSignDoc` as cosmjs `makeSignDoc` builds it and the SDK's handler encodes it: numbers as
 * decimal strings, the fee's payer and granter only when set, `timeout_height` only when non-zero.
 */
export async function aminoSignDoc(input: AminoSignDocInput): Promise<Record<string, unknown>> {
  const msgs = [];
  for (const msg of input.messages) msgs.push(await msgToAmino(msg));
  const { fee } = input;
  return {
    chain_id: input.chainId,
    account_number: input.accountNumber.toString(),
    sequence: input.sequence.toString(),
    fee: {
      amount: fee.amount.map((c) => ({ denom: c.denom, amount: c.amount })),
      gas: fee.gasLimit.toString(),
      ...(fee.granter !== '' ? { granter: fee.granter } : {}),
      ...(fee.payer !== '' ? { payer: fee.payer } : {}),
    },
    msgs,
    memo: input.memo,
    ...(input.timeoutHeight > 0n ? { timeout_height: input.timeoutHeight.toString() } : {}),
  };
}

function sortKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortKeys);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** Canonical JSON: keys sorted at every depth, no spaces, `&<>` as `\u0026` `\u003c` `\u003e`. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
    .replace(/&/g, '\\u0026')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e');
}

/** The bytes a SIGN_MODE_LEGACY_AMINO_JSON signature covers. */
export async function aminoSignBytes(input: AminoSignDocInput): Promise<Uint8Array> {
  return new TextEncoder().encode(canonicalJson(await aminoSignDoc(input)));
}

const EIP191_PREFIX = '\x19Ethereum Signed Message:\n';

/**
 * Initia's `FormatEIP191Message`: the Ethereum personal-message envelope around the amino JSON, the
 * length written in decimal bytes. An Ethereum wallet's `personal_sign` of the JSON signs exactly this.
 */
export function eip191Message(message: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`${EIP191_PREFIX}${message.length}`);
  const out = new Uint8Array(prefix.length + message.length);
  out.set(prefix);
  out.set(message, prefix.length);
  return out;
}
