import { ParamError } from './comet-errors.js';

/**
 * Method arguments from the two ways CometBFT takes them: URI query strings (`height=5`, `hash=0xAB…`,
 * `query="tx.height=5"`) and JSON-RPC params (by name or by position; int64 as strings, bytes as base64).
 */
export interface MethodParams {
  int(name: string): number | undefined;
  string(name: string): string | undefined;
  bytes(name: string): Uint8Array | undefined;
  bool(name: string): boolean | undefined;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeBase64(text: string): Uint8Array {
  if (!BASE64.test(text))
    throw new ParamError(`illegal base64 data at input byte ${firstBadBase64Byte(text)}`);
  return Buffer.from(text, 'base64');
}

function firstBadBase64Byte(text: string): number {
  const bad = text.search(/[^A-Za-z0-9+/=]/);
  return bad === -1 ? Math.max(0, text.length - (text.length % 4)) : bad;
}

export function decodeHex(text: string): Uint8Array {
  if (text.length % 2 !== 0) throw new ParamError('encoding/hex: odd length hex string');
  const bad = text.search(/[^0-9a-fA-F]/);
  if (bad !== -1)
    throw new ParamError(
      `encoding/hex: invalid byte: U+00${text.charCodeAt(bad).toString(16).toUpperCase()}`,
    );
  return Buffer.from(text, 'hex');
}

function parseInteger(text: string): number {
  if (!/^-?\d+$/.test(text))
    throw new ParamError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new ParamError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  return value;
}

const isQuoted = (text: string) => text.length >= 2 && text.startsWith('"') && text.endsWith('"');

function unquote(text: string): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    throw new ParamError(`invalid quoted string ${text}`);
  }
}

export function uriParams(query: Record<string, unknown>): MethodParams {
  const get = (name: string): string | undefined => {
    const value = query[name];
    const text = Array.isArray(value) ? value[0] : value;
    return typeof text === 'string' && text !== '' ? text : undefined;
  };
  return {
    int(name) {
      const text = get(name);
      if (text === undefined) return undefined;
      return parseInteger(isQuoted(text) ? unquote(text) : text);
    },
    string(name) {
      const text = get(name);
      if (text === undefined) return undefined;
      // CometBFT wants strings quoted; an unquoted value is taken as it stands.
      return isQuoted(text) ? unquote(text) : text;
    },
    bytes(name) {
      const text = get(name);
      if (text === undefined) return undefined;
      if (/^0x/i.test(text)) return decodeHex(text.slice(2));
      return decodeBase64(isQuoted(text) ? unquote(text) : text);
    },
    bool(name) {
      const text = get(name);
      if (text === undefined) return undefined;
      if (text === 'true' || text === 'false') return text === 'true';
      throw new ParamError(`strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
    },
  };
}

export function jsonParams(params: unknown, names: readonly string[]): MethodParams {
  let byName: Record<string, unknown>;
  if (params === undefined || params === null) byName = {};
  else if (Array.isArray(params)) {
    if (params.length > names.length) {
      throw new ParamError(`expected ${names.length} parameters (${names.join(', ')}), got ${params.length}`);
    }
    byName = Object.fromEntries(params.map((value, i) => [names[i]!, value]));
  } else if (typeof params === 'object') byName = params as Record<string, unknown>;
  else throw new ParamError(`unknown type for JSON params: ${typeof params}`);

  const get = (name: string) => {
    const value = byName[name];
    return value === null ? undefined : value;
  };
  const typeError = (name: string, want: string, value: unknown) =>
    new ParamError(`${name}: json: cannot unmarshal ${typeof value} into Go value of type ${want}`);
  return {
    int(name) {
      const value = get(name);
      if (value === undefined) return undefined;
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value === 'string') return parseInteger(value);
      throw typeError(name, 'int64', value);
    },
    string(name) {
      const value = get(name);
      if (value === undefined) return undefined;
      if (typeof value === 'string') return value;
      throw typeError(name, 'string', value);
    },
    bytes(name) {
      const value = get(name);
      if (value === undefined) return undefined;
      if (typeof value === 'string') return decodeBase64(value);
      throw typeError(name, '[]uint8', value);
    },
    bool(name) {
      const value = get(name);
      if (value === undefined) return undefined;
      if (typeof value === 'boolean') return value;
      throw typeError(name, 'bool', value);
    },
  };
}
