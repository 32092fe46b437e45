import { describe, expect, it } from 'vitest';
import { captureDrops } from '../test-support/drops.js';
import { readable } from './fixtures/readable.js';
import { type CallFrame, flattenTraces } from './internal-txs.js';

const HASH = '0xabcdef1234567890abcdef1234567890abcdef1234567890abcdef1234567890';

/** rollytics' `getTestResponse()` (indexer/extension/internaltx/collect_test.go), with a root output added. */
const ROLLYTICS_TREE: CallFrame = {
  type: 'CALL',
  from: '0x1234567890123456789012345678901234567890',
  to: '0x0987654321098765432109876543210987654321',
  value: '0x0100',
  gas: '0x5208',
  gasUsed: '0x5208',
  input: '0x',
  output: '0xdeadbeef',
  calls: [
    {
      type: 'CALL',
      from: '0x0987654321098765432109876543210987654321',
      to: '0x1111111111111111111111111111111111111111',
      value: '0x0025',
      gas: '0x1302',
      gasUsed: '0x1302',
      input: '0x',
      output: '0x00fedcba',
      calls: [
        {
          type: 'STATICCALL',
          from: '0x1111111111111111111111111111111111111111',
          to: '0x3333333333333333333333333333333333333333',
          value: '0x00',
          gas: '0x0800',
          gasUsed: '0x0600',
          input: '0xaabbccdd',
          output: '0x11223344',
        },
      ],
    },
    {
      type: 'DELEGATECALL',
      from: '0x1234567890123456789012345678901234567890',
      to: '0x2222222222222222222222222222222222222222',
      value: '0x00',
      gas: '0x3000',
      gasUsed: '0x2500',
      input: '0x',
      output: '0xbeefdead',
    },
  ],
};

describe('flattenTraces', () => {
  it("numbers rollytics' test tree (0,-1) (1,0) (2,1) (3,0) and drops the top-level output", () => {
    expect(readable(flattenTraces(100, [{ txHash: HASH, result: ROLLYTICS_TREE }]))).toEqual([
      {
        txHash: HASH,
        index: 0,
        parentIndex: -1,
        type: 'CALL',
        from: '0x1234567890123456789012345678901234567890',
        to: '0x0987654321098765432109876543210987654321',
        input: '0x',
        output: '0x',
        value: '0x0100',
        gas: '0x5208',
        gasUsed: '0x5208',
      },
      {
        txHash: HASH,
        index: 1,
        parentIndex: 0,
        type: 'CALL',
        from: '0x0987654321098765432109876543210987654321',
        to: '0x1111111111111111111111111111111111111111',
        input: '0x',
        output: '0x00fedcba',
        value: '0x0025',
        gas: '0x1302',
        gasUsed: '0x1302',
      },
      {
        txHash: HASH,
        index: 2,
        parentIndex: 1,
        type: 'STATICCALL',
        from: '0x1111111111111111111111111111111111111111',
        to: '0x3333333333333333333333333333333333333333',
        input: '0xaabbccdd',
        output: '0x11223344',
        value: '0x00',
        gas: '0x0800',
        gasUsed: '0x0600',
      },
      {
        txHash: HASH,
        index: 3,
        parentIndex: 0,
        type: 'DELEGATECALL',
        from: '0x1234567890123456789012345678901234567890',
        to: '0x2222222222222222222222222222222222222222',
        input: '0x',
        output: '0xbeefdead',
        value: '0x00',
        gas: '0x3000',
        gasUsed: '0x2500',
      },
    ]);
  });

  it('offsets later siblings by the size of the subtrees before them', () => {
    const frame = (calls: CallFrame[] = []): CallFrame => ({
      type: 'CALL',
      from: '0x01',
      to: '0x02',
      value: '0x0',
      gas: '0x1',
      gasUsed: '0x1',
      input: '0x',
      calls,
    });
    // root → A(→ A1, A2 → A2a) → B
    const tree = frame([frame([frame(), frame([frame()])]), frame()]);
    const flat = flattenTraces(5, [{ txHash: HASH, result: tree }]);
    expect(flat.map((f) => [f.index, f.parentIndex])).toEqual([
      [0, -1],
      [1, 0],
      [2, 1],
      [3, 1],
      [4, 3],
      [5, 0],
    ]);
  });

  it('skips failed traces, pads odd hex and leaves a missing `to` null', () => {
    const flat = flattenTraces(7, [
      { txHash: `0x${'11'.repeat(32)}`, error: 'execution timeout' },
      {
        txHash: `0x${'22'.repeat(32)}`,
        result: { type: 'CREATE', from: '0xabc', value: '0x0', gas: '0x5', gasUsed: '0x', input: '0x600' },
      },
    ]);
    expect(readable(flat)).toEqual([
      {
        txHash: `0x${'22'.repeat(32)}`,
        index: 0,
        parentIndex: -1,
        type: 'CREATE',
        from: `0x${'0'.repeat(37)}abc`,
        to: null,
        input: '0x0600',
        output: '0x',
        value: '0x00',
        gas: '0x05',
        gasUsed: '0x',
      },
    ]);
  });

  it('counts and reports a trace entry with neither a result nor an error, not a failed trace', async () => {
    const { drops, counts, warnings, advance } = captureDrops();
    const traces = [
      { txHash: `0x${'11'.repeat(32)}`, error: 'execution reverted' },
      { txHash: `0x${'33'.repeat(32)}` },
      { txHash: HASH, result: ROLLYTICS_TREE },
    ];
    expect(flattenTraces(9, traces, drops).map((f) => f.index)).toEqual([0, 1, 2, 3]);
    flattenTraces(10, traces, drops);
    expect(await counts()).toEqual({ 'internal_tx/missing_result': 2 });
    expect(warnings()).toEqual([
      expect.objectContaining({
        decoder: 'internal_tx',
        reason: 'missing_result',
        height: 9,
        txHash: `0x${'33'.repeat(32)}`,
      }),
    ]);
    advance(60_000);
    flattenTraces(11, traces, drops);
    expect(warnings()[1]).toMatchObject({ height: 11, suppressedSinceLastWarning: 1 });
  });
});
