import type { ChainNode, TxRecord } from '../node.js';

/**
 * The CometBFT event query language (`tx.height=5 AND message.sender='init1…'`) as `/tx_search` and the
 * SDK's GetTxsEvent take it, and the search of committed txs it drives.
 */

export type QueryOp = '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'EXISTS';

export interface QueryCondition {
  /** Composite key `<event type>.<attribute key>`, or `tx.height` / `tx.hash`. */
  key: string;
  op: QueryOp;
  value?: string | number;
}

export class QuerySyntaxError extends Error {
  override name = 'QuerySyntaxError';
}

const MAX_QUERY_LENGTH = 512;
const OPERATORS: QueryOp[] = ['<=', '>=', '=', '<', '>'];

export function parseTxQuery(text: string): QueryCondition[] {
  if (text.length > MAX_QUERY_LENGTH) throw new QuerySyntaxError('maximum query length exceeded');
  const conditions: QueryCondition[] = [];
  let pos = 0;
  const skipSpace = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos += 1;
  };
  const fail = (what: string): never => {
    throw new QuerySyntaxError(`failed to parse query ${JSON.stringify(text)}: ${what} at position ${pos}`);
  };
  skipSpace();
  if (pos === text.length) fail('empty query');
  while (pos < text.length) {
    const keyMatch = /^[^\s'=<>]+/.exec(text.slice(pos));
    if (!keyMatch) fail('expected an event key');
    const key = keyMatch![0];
    pos += key.length;
    skipSpace();
    const rest = text.slice(pos);
    let op: QueryOp | undefined;
    if (/^EXISTS\b/.test(rest)) op = 'EXISTS';
    else if (/^CONTAINS\b/.test(rest)) op = 'CONTAINS';
    else op = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (!op) fail('expected an operator');
    pos += op!.length;
    const condition: QueryCondition = { key, op: op! };
    if (op !== 'EXISTS') {
      skipSpace();
      condition.value = parseValue();
    }
    conditions.push(condition);
    skipSpace();
    if (pos === text.length) break;
    if (!/^AND\s/.test(text.slice(pos))) fail('expected AND');
    pos += 3;
    skipSpace();
  }
  return conditions;

  function parseValue(): string | number {
    const rest = text.slice(pos);
    const quoted = /^'([^']*)'/.exec(rest);
    if (quoted) {
      pos += quoted[0].length;
      return quoted[1]!;
    }
    const dated = /^(DATE|TIME)\s+(\S+)/.exec(rest);
    if (dated) {
      pos += dated[0].length;
      return dated[2]!;
    }
    const number = /^-?\d+(\.\d+)?/.exec(rest);
    if (number) {
      pos += number[0].length;
      return Number(number[0]);
    }
    return fail('expected a value');
  }
}

/** The SDK's legacy `events=` parameters: `key=value` pairs whose values it quotes itself. */
export function queryFromLegacyEvents(events: string[]): string {
  return events
    .map((event) => {
      const eq = event.indexOf('=');
      if (eq === -1 || event.indexOf('=', eq + 1) !== -1) {
        throw new QuerySyntaxError(
          `invalid event; event ${event} should be of the format: {eventType}.{eventAttribute}={value}`,
        );
      }
      const key = event.slice(0, eq).trim();
      const value = event.slice(eq + 1).trim();
      if (key === 'tx.height' || value.startsWith("'")) return `${key}=${value}`;
      return `${key}='${value}'`;
    })
    .join(' AND ');
}

function compare(actual: string | number, op: QueryOp, expected: string | number | undefined): boolean {
  if (op === 'EXISTS') return true;
  if (expected === undefined) return false;
  if (op === 'CONTAINS') return String(actual).includes(String(expected));
  if (typeof expected === 'number') {
    const value = typeof actual === 'number' ? actual : Number(actual);
    if (Number.isNaN(value)) return false;
    switch (op) {
      case '=':
        return value === expected;
      case '<':
        return value < expected;
      case '<=':
        return value <= expected;
      case '>':
        return value > expected;
      case '>=':
        return value >= expected;
    }
  }
  return op === '=' && String(actual) === expected;
}

/** Whether a committed tx matches every condition (only indexed attributes count, as in the kv indexer). */
export function txMatches(conditions: QueryCondition[], height: number, tx: TxRecord): boolean {
  return conditions.every((condition) => {
    if (condition.key === 'tx.height') return compare(height, condition.op, condition.value);
    if (condition.key === 'tx.hash') {
      const expected = typeof condition.value === 'string' ? condition.value.toUpperCase() : condition.value;
      return compare(tx.hash, condition.op, expected);
    }
    const dot = condition.key.indexOf('.');
    if (dot === -1) return false;
    const type = condition.key.slice(0, dot);
    const attribute = condition.key.slice(dot + 1);
    return tx.result.events.some(
      (event) =>
        event.type === type &&
        (event.attributes ?? []).some(
          (attr) =>
            attr.key === attribute &&
            attr.index !== false &&
            compare(attr.value, condition.op, condition.value),
        ),
    );
  });
}

export interface TxMatch {
  height: number;
  tx: TxRecord;
}

/** Committed txs matching the query, ordered by (height, index); `tx.height` and `tx.hash` narrow the scan. */
export function searchTxs(
  node: ChainNode,
  range: { earliest: number; latest: number },
  conditions: QueryCondition[],
  order: 'asc' | 'desc' = 'asc',
): TxMatch[] {
  let lo = range.earliest;
  let hi = range.latest;
  for (const { key, op, value } of conditions) {
    if (key === 'tx.hash' && op === '=' && typeof value === 'string') {
      const found = node.findTx(value.toUpperCase());
      if (!found) return [];
      lo = Math.max(lo, found.height);
      hi = Math.min(hi, found.height);
    }
    if (key !== 'tx.height' || typeof value !== 'number') continue;
    if (op === '=') {
      lo = Math.max(lo, value);
      hi = Math.min(hi, value);
    } else if (op === '>') lo = Math.max(lo, Math.floor(value) + 1);
    else if (op === '>=') lo = Math.max(lo, Math.ceil(value));
    else if (op === '<') hi = Math.min(hi, Math.ceil(value) - 1);
    else if (op === '<=') hi = Math.min(hi, Math.floor(value));
  }
  const matches: TxMatch[] = [];
  for (let height = lo; height <= hi; height += 1) {
    const record = node.getBlock(height);
    if (!record) continue;
    for (const tx of record.txs) if (txMatches(conditions, height, tx)) matches.push({ height, tx });
  }
  return order === 'desc' ? matches.reverse() : matches;
}
