import type { AbciEvent, Coin } from './types.js';

/** Builds an event with indexed attributes, in the given key order. */
export function event(type: string, attributes: Record<string, string>, index = true): AbciEvent {
  return { type, attributes: Object.entries(attributes).map(([key, value]) => ({ key, value, index })) };
}

/** SDK 0.50 appends `msg_index` to every event a msg emits. */
export function appendMsgIndex(events: AbciEvent[], msgIndex: number | undefined): AbciEvent[] {
  if (msgIndex === undefined) return events;
  return events.map((e) => ({
    type: e.type,
    attributes: [...e.attributes, { key: 'msg_index', value: String(msgIndex), index: true }],
  }));
}

/** `sdk.Coins.String()`: `1000uinit,5uusdc`, sorted by denom. */
export function coinsToString(coins: readonly Coin[]): string {
  return [...coins]
    .sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0))
    .map((c) => `${c.amount}${c.denom}`)
    .join(',');
}

/** Appends `mode` as the last attribute, as finalize_block_events carry it. */
export function withMode(events: AbciEvent[], mode: 'BeginBlock' | 'EndBlock'): AbciEvent[] {
  return events.map((e) => ({
    type: e.type,
    attributes: [...e.attributes, { key: 'mode', value: mode, index: false }],
  }));
}
