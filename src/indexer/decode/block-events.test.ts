import { describe, expect, it } from 'vitest';
import { orderedBlockEvents, splitFinalizeEvents } from './block-events.js';

const ev = (type: string, ...attrs: Array<[string, string]>) => ({
  type,
  attributes: attrs.map(([key, value]) => ({ key, value, index: false })),
});

describe('block events', () => {
  const finalize = [
    ev('coin_spent', ['spender', 'a'], ['mode', 'BeginBlock']),
    ev('upgrade', ['name', 'v2']),
    { type: 'bare' },
    ev('commission', ['amount', '1'], ['mode', 'EndBlock']),
    ev('odd', ['mode', 'Other']),
    ev('mint', ['amount', '2'], ['mode', 'BeginBlock']),
  ];

  it('splits finalize_block_events by their last attribute, as rollytics does', () => {
    const split = splitFinalizeEvents(finalize);
    expect(split.pre.map((e) => e.type)).toEqual(['upgrade']);
    expect(split.begin.map((e) => e.type)).toEqual(['coin_spent', 'mint']);
    expect(split.end.map((e) => e.type)).toEqual(['commission']);
  });

  it('orders pre-block, begin-block, tx and end-block events', () => {
    const blockResults = {
      txs_results: [{ events: [ev('tx0')] }, { events: null }, { events: [ev('tx2a'), ev('tx2b')] }],
      finalize_block_events: finalize,
    };
    expect(orderedBlockEvents(blockResults).map((e) => [e.event.type, e.txIndex])).toEqual([
      ['upgrade', null],
      ['coin_spent', null],
      ['mint', null],
      ['tx0', 0],
      ['tx2a', 2],
      ['tx2b', 2],
      ['commission', null],
    ]);
    expect(orderedBlockEvents(blockResults, new Set(['mint', 'tx2b'])).map((e) => e.event.type)).toEqual([
      'mint',
      'tx2b',
    ]);
  });
});
