import type { BlockRecord } from '../node.js';

export interface ObservedEvent {
  type: string;
  attrs: Map<string, string>;
  /** Attributes in order (keys may repeat). */
  list: Array<{ key: string; value: string }>;
  /** `action` and `sender` of the msg the event belongs to. */
  msg: { action: string; sender: string };
}

/** The events of a block's successful txs, in order, for plans that learn from them. */
export function* successfulTxEvents(record: BlockRecord): Generator<ObservedEvent> {
  for (const tx of record.txs) {
    if (tx.result.code !== 0) continue;
    let msg = { action: '', sender: '' };
    for (const e of tx.result.events) {
      const list = (e.attributes ?? []).map((a) => ({ key: a.key, value: a.value }));
      const attrs = new Map(list.map((a) => [a.key, a.value]));
      if (e.type === 'message' && attrs.has('action')) {
        msg = { action: attrs.get('action')!, sender: attrs.get('sender') ?? '' };
      }
      yield { type: e.type, attrs, list, msg };
    }
  }
}
