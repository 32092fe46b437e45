import { describe, expect, it } from 'vitest';
import { captureDrops } from '../test-support/drops.js';
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

  it('counts and reports the finalize events it drops', async () => {
    const { drops, counts, warnings, advance } = captureDrops();
    splitFinalizeEvents(finalize, drops);
    expect(await counts()).toEqual({ 'block_events/no_attributes': 1, 'block_events/unknown_mode': 1 });
    expect(warnings()).toEqual([
      expect.objectContaining({ decoder: 'block_events', reason: 'no_attributes', type: 'bare' }),
    ]);
    // A node that tags its events `mode=PreBlock` (a newer SDK) keeps dropping them: one warning a minute.
    for (let i = 0; i < 3; i += 1) splitFinalizeEvents([ev('upgrade', ['mode', 'PreBlock'])], drops);
    expect(warnings()).toHaveLength(1);
    advance(60_000);
    splitFinalizeEvents([ev('upgrade', ['mode', 'PreBlock'])], drops);
    expect(warnings()[1]).toMatchObject({
      reason: 'unknown_mode',
      mode: 'PreBlock',
      suppressedSinceLastWarning: 4,
    });
    expect(await counts()).toEqual({ 'block_events/no_attributes': 1, 'block_events/unknown_mode': 5 });
    // Without a reporter (the other passes over the same block) nothing is counted.
    orderedBlockEvents({ finalize_block_events: finalize });
    expect(await counts()).toEqual({ 'block_events/no_attributes': 1, 'block_events/unknown_mode': 5 });
  });
});
