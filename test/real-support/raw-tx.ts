import { createHash } from 'node:crypto';
import { type RestTxJson, restTxToRaw } from './proto-json.js';

/** Re-encoded `TxRaw` of a recorded tx, and whether its SHA-256 is the recorded txhash. */
export interface ReencodedTx {
  raw: Uint8Array;
  hash: string;
  matches: boolean;
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').toUpperCase();

const MAX_ORDERINGS = 5_000;

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Every key ordering of a JSON value's objects (nested ones included), up to `limit` of them. */
function orderings(value: unknown, limit: number): unknown[] {
  if (Array.isArray(value)) {
    let out: unknown[][] = [[]];
    for (const item of value) {
      out = out.flatMap((prefix) => orderings(item, limit).map((v) => [...prefix, v])).slice(0, limit);
    }
    return out;
  }
  if (value === null || typeof value !== 'object') return [value];
  const entries = Object.entries(value as Record<string, unknown>);
  const variants = entries.map(([k, v]) => orderings(v, limit).map((x) => [k, x] as const));
  let out: Array<Array<readonly [string, unknown]>> = [[]];
  for (const list of variants) out = out.flatMap((prefix) => list.map((e) => [...prefix, e])).slice(0, limit);
  return out
    .flatMap((fields) => permutations(fields))
    .slice(0, limit)
    .map((fields) => Object.fromEntries(fields));
}

/**
 * Re-encodes a REST-rendered tx. A CosmWasm msg is bytes of JSON the gateway inlines; a fixture that
 * sorted its keys lost their order, so each ordering is tried until one hashes to the recorded txhash.
 */
export function reencodeTx(tx: RestTxJson, txhash: string): ReencodedTx {
  const want = txhash.toUpperCase();
  const first = restTxToRaw(tx);
  if (sha256Hex(first) === want) return { raw: first, hash: want, matches: true };
  const messages = tx.body.messages as Array<Record<string, unknown>>;
  const wasm = messages.flatMap((m, i) =>
    String(m['@type']).startsWith('/cosmwasm.') && m.msg && typeof m.msg === 'object' ? [i] : [],
  );
  if (wasm.length > 0) {
    for (const msgs of orderings(
      wasm.map((i) => messages[i]!.msg),
      MAX_ORDERINGS,
    ) as unknown[][]) {
      const body = {
        ...tx.body,
        messages: messages.map((m, i) => (wasm.includes(i) ? { ...m, msg: msgs[wasm.indexOf(i)] } : m)),
      };
      const raw = restTxToRaw({ ...tx, body });
      if (sha256Hex(raw) === want) return { raw, hash: want, matches: true };
    }
  }
  return { raw: first, hash: sha256Hex(first), matches: false };
}
