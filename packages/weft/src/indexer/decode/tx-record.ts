import type { CometEvent } from './block-events.js';

/**
 * The Cosmos tx record the API serves, built as rollytics builds its `types.Tx`: the ExecTxResult fields,
 * the REST tx without `@type`, the block time, and the events in CometBFT JSON with `omitempty` applied.
 * NUL characters become U+FFFD (and a literal `\u0000` text `\uFFFD`), since PostgreSQL rejects NULs.
 */

const NUL = '\u0000';
const NUL_ESCAPE = '\\u0000';

/** rollytics' `sanitizeJSONBytes`, applied to one string. */
export function sanitizeText(text: string): string {
  if (!text.includes(NUL) && !text.includes(NUL_ESCAPE)) return text;
  return text.replaceAll(NUL, '\uFFFD').replaceAll(NUL_ESCAPE, '\\uFFFD');
}

const hasNul = (text: string) => text.includes(NUL) || text.includes(NUL_ESCAPE);

/** Whether any string of a JSON value (keys included) needs `sanitizeText`; allocates nothing. */
function needsSanitizing(value: unknown): boolean {
  if (typeof value === 'string') return hasNul(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(needsSanitizing);
  for (const key in value) {
    if (hasNul(key) || needsSanitizing((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function sanitizeCopy(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeText(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sanitizeCopy);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[sanitizeText(key)] = sanitizeCopy(item);
  return out;
}

/** `sanitizeText` over every string (keys too) of a JSON value; returns the same value when nothing changes. */
export function sanitizeJson<T>(value: T): T {
  return needsSanitizing(value) ? (sanitizeCopy(value) as T) : value;
}

/** ABCI events as CometBFT's JSON writes them with `omitempty`: no empty type, attributes, key or value, no `index:false`. */
export function eventsJson(events: CometEvent[] | null | undefined): Array<Record<string, unknown>> {
  return (events ?? []).map((event) => {
    const out: Record<string, unknown> = {};
    if (event.type) out.type = sanitizeText(event.type);
    const attributes = event.attributes;
    if (attributes && attributes.length > 0) {
      out.attributes = attributes.map((attr) => {
        const a: Record<string, unknown> = {};
        if (attr.key) a.key = sanitizeText(attr.key);
        if (attr.value) a.value = sanitizeText(attr.value);
        if (attr.index) a.index = true;
        return a;
      });
    }
    return out;
  });
}

/** Go's RFC3339Nano of a UTC time: trailing zeros of the fraction (and an all-zero fraction) dropped. */
export function canonicalTime(time: string): string {
  const m = /^(.*T\d{2}:\d{2}:\d{2})\.(\d+)Z$/.exec(time);
  if (!m) return time;
  const fraction = m[2]!.replace(/0+$/, '');
  return fraction === '' ? `${m[1]}Z` : `${m[1]}.${fraction}Z`;
}

/** The REST tx as rollytics' `RestTx` keeps it: body, auth_info and signatures only. */
export function restTxJson(restTx: Record<string, any>): Record<string, unknown> {
  return sanitizeJson({
    body: restTx.body ?? null,
    auth_info: restTx.auth_info ?? null,
    signatures: restTx.signatures ?? null,
  });
}

export function txRecord(input: {
  hashHex: string;
  height: number;
  result: Record<string, any>;
  restTx: Record<string, any>;
  timestamp: string;
}): Record<string, unknown> {
  const { result } = input;
  const data = typeof result.data === 'string' ? Buffer.from(result.data, 'base64') : Buffer.alloc(0);
  return {
    txhash: input.hashHex,
    height: String(input.height),
    codespace: sanitizeText(result.codespace ?? ''),
    code: Number(result.code ?? 0),
    data: data.toString('hex').toUpperCase(),
    raw_log: sanitizeText(result.log ?? ''),
    logs: [],
    info: sanitizeText(result.info ?? ''),
    gas_wanted: BigInt(result.gas_wanted ?? 0).toString(),
    gas_used: BigInt(result.gas_used ?? 0).toString(),
    tx: restTxJson(input.restTx),
    timestamp: input.timestamp,
    events: eventsJson(result.events),
  };
}
