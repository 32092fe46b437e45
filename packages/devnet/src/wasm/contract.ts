import type { StateReader, StateStore } from '../state/store.js';

/** The interface the simulated CosmWasm contracts share, and serde-style parsing of their messages. */

/** What a contract sees of the chain (`Env` and the address API). */
export interface ContractEnv {
  /** The contract's own bech32 address. */
  contract: string;
  height: number;
  /** Block time in nanoseconds. */
  timeNanos: bigint;
  /** Validates a bech32 account address as `deps.api.addr_validate` does; throws ContractError. */
  validateAddress(address: string): string;
}

/** A contract's `Response`: attributes of its `wasm` event and the messages it dispatches. */
export interface ContractResponse {
  attributes: Array<[string, string]>;
  /** `WasmMsg::Execute` messages (the only kind the simulated contracts send). */
  messages: Array<{ contract: string; msg: unknown }>;
}

/** A contract returned an error; its message is the `res.Err` string wasmd wraps. */
export class ContractError extends Error {
  override name = 'ContractError';
}

export interface Contract {
  /** The Rust type names that appear in its parse errors. */
  readonly instantiateType: string;
  readonly executeType: string;
  readonly queryType: string;
  instantiate(
    store: StateStore,
    base: string,
    env: ContractEnv,
    sender: string,
    msg: unknown,
  ): ContractResponse;
  execute(store: StateStore, base: string, env: ContractEnv, sender: string, msg: unknown): ContractResponse;
  query(state: StateReader, base: string, env: ContractEnv, msg: unknown): unknown;
}

/** `StdError::ParseErr` as cosmwasm-std prints it. */
export function parseError(typeName: string, detail: string): ContractError {
  return new ContractError(`Error parsing into type ${typeName}: ${detail}`);
}

/** serde's `expected ...` tail of unknown-variant and unknown-field errors. */
function expected(names: readonly string[], none: string): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length === 0) return `there are no ${none}`;
  return quoted.length === 1 ? `expected ${quoted[0]}` : `expected one of ${quoted.join(', ')}`;
}

/** `#[cw_serde]` structs deny unknown fields; serde reports the first one. */
export function denyUnknownFields(
  typeName: string,
  body: Record<string, unknown>,
  known: readonly string[],
): void {
  const unknown = Object.keys(body).find((k) => !known.includes(k));
  if (unknown !== undefined)
    throw parseError(typeName, `unknown field \`${unknown}\`, ${expected(known, 'fields')}`);
}

/**
 * Serde's externally tagged enum: `{"variant": {...}}` (or a bare string for a unit variant), with each
 * variant's field names in `schema`.
 */
export function parseVariant(
  typeName: string,
  schema: Readonly<Record<string, readonly string[]>>,
  msg: unknown,
): [string, Record<string, unknown>] {
  const variants = Object.keys(schema);
  const unknownVariant = (v: string) =>
    parseError(typeName, `unknown variant \`${v}\`, ${expected(variants, 'variants')}`);
  if (typeof msg === 'string') {
    if (!variants.includes(msg)) throw unknownVariant(msg);
    return [msg, {}];
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg) || Object.keys(msg).length !== 1) {
    throw parseError(typeName, 'Invalid type');
  }
  const [variant, body] = Object.entries(msg)[0]!;
  if (!variants.includes(variant)) throw unknownVariant(variant);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw parseError(typeName, 'Invalid type');
  denyUnknownFields(typeName, body as Record<string, unknown>, schema[variant]!);
  return [variant, body as Record<string, unknown>];
}

/** Field readers that fail as serde does. */
export function fields(typeName: string, body: Record<string, unknown>) {
  const required = <T>(name: string, check: (v: unknown) => v is T): T => {
    if (!(name in body)) throw parseError(typeName, `missing field \`${name}\``);
    if (!check(body[name])) throw parseError(typeName, 'Invalid type');
    return body[name] as T;
  };
  const optional = <T>(name: string, check: (v: unknown) => v is T): T | undefined => {
    const v = body[name];
    if (v === undefined || v === null) return undefined;
    if (!check(v)) throw parseError(typeName, 'Invalid type');
    return v as T;
  };
  return {
    string: (name: string) => required(name, isString),
    optionalString: (name: string) => optional(name, isString),
    optionalNumber: (name: string) => optional(name, isUint),
    optionalBool: (name: string) => optional(name, isBool),
    any: (name: string) => body[name],
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isUint = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
