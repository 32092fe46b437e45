import { attributesOf } from 'weft/protocol/events.js';
import type { BlockRecord, TxRecord } from '../node.js';

/** What the control surface drives on every relayer. */
export interface RelayerControl {
  pause(): void;
  resume(): void;
  setDelay(ms: number): void;
  readonly paused: boolean;
  readonly delayMs: number;
}

export interface DelayQueue<T> extends RelayerControl {
  push(item: T): void;
  /** Puts items back at the head, due at once (a relay that did not go through). */
  retry(items: T[]): void;
  /** Removes and returns the items whose delay has passed, in arrival order; none while paused. */
  takeDue(): T[];
  /** When the head item is due (wall time); undefined when empty or paused. */
  dueAt(): number | undefined;
  readonly size: number;
}

/** Items wait `delayMs` (wall time) after they were seen; a paused queue keeps them. */
export function createDelayQueue<T>(options: { delayMs?: number; now?: () => number }): DelayQueue<T> {
  const now = options.now ?? Date.now;
  const items: Array<{ seenAt: number; item: T }> = [];
  let delayMs = options.delayMs ?? 0;
  let paused = false;
  return {
    push: (item) => items.push({ seenAt: now(), item }),
    retry: (retried) => items.unshift(...retried.map((item) => ({ seenAt: Number.NEGATIVE_INFINITY, item }))),
    takeDue() {
      if (paused) return [];
      const at = now();
      let count = 0;
      while (count < items.length && items[count]!.seenAt + delayMs <= at) count += 1;
      return items.splice(0, count).map((entry) => entry.item);
    },
    dueAt: () => (paused || items.length === 0 ? undefined : items[0]!.seenAt + delayMs),
    get size() {
      return items.length;
    },
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    setDelay: (ms) => {
      delayMs = Math.max(0, ms);
    },
    get paused() {
      return paused;
    },
    get delayMs() {
      return delayMs;
    },
  };
}

export interface FoundEvent {
  tx: TxRecord;
  attributes: Record<string, string>;
}

/** Events of one type emitted by the successful txs of a block, with their attributes as a record. */
export function eventsOfType(record: BlockRecord, type: string): FoundEvent[] {
  const found: FoundEvent[] = [];
  for (const tx of record.txs) {
    if (tx.result.code !== 0) continue;
    for (const e of tx.result.events) {
      if (e.type !== type) continue;
      found.push({ tx, attributes: attributesOf(e) });
    }
  }
  return found;
}
