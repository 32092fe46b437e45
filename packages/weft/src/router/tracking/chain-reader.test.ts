import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BlockEvidence } from './apply-evidence.js';
import { cosmosBlockOf, type SourceTx, sourceOfTxResponse } from './chain-reader.js';

/**
 * What the chain reader makes of a node's answers, on answers recorded from the devnet by
 * `test/router-tracking-record.ts` (`answers` in each file of `test-support/recorded/`): CometBFT
 * `/block` and `/block_results` become the block's hashes and its successful txs with transfer events,
 * REST `GetTx`'s `tx_response` a source tx with its result and asset. The expected values are what
 * `createChainReader` answered over the same nodes in the same run. (`test/real-tracker.test.ts` reads real
 * mainnet txs through a replay of their nodes' answers.)
 */

interface Recording {
  origin: string;
  source?: SourceTx;
  blocks: BlockEvidence[];
  answers: {
    source?: Record<string, any>;
    blocks: Array<{ chainId: string; height: number; block: { block: any }; results: Record<string, any> }>;
  };
}

const recorded = (name: string): Recording =>
  JSON.parse(readFileSync(new URL(`./test-support/recorded/${name}.json`, import.meta.url), 'utf8'));

describe('the chain reader on recorded node answers', () => {
  for (const name of ['ibc-forward', 'opinit-deposit', 'failed-deposit']) {
    it(`decodes the blocks and the source tx of ${name} as it did on the devnet`, () => {
      const recording = recorded(name);
      expect(recording.answers.blocks.length).toBeGreaterThan(0);
      for (const answer of recording.answers.blocks) {
        const { chainId, ...expected } = recording.blocks.find(
          (b) =>
            b.chainId === answer.chainId && (b as unknown as { height: number }).height === answer.height,
        )!;
        expect(cosmosBlockOf(answer.chainId, answer.height, answer.block, answer.results)).toEqual(expected);
      }
      const chainId = recording.source!.tx.chainId;
      expect(sourceOfTxResponse(chainId, recording.answers.source!)).toEqual(recording.source);
    });
  }

  it('keeps every tx hash of a block, but only the successful txs that carry transfer events', () => {
    const { answers } = recorded('failed-deposit');
    const answer = answers.blocks[0]!;
    const block = cosmosBlockOf(answer.chainId, answer.height, answer.block, answer.results);
    const results = answer.results.txs_results as Array<{ code: number }>;
    expect(block.hashes).toHaveLength(results.length);
    expect(block.hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
    expect(results.some((r) => r.code !== 0)).toBe(true);
    expect(block.txs.length).toBeLessThan(results.length);
  });

  it('reads a failed tx: its code and log, no events, and the asset its msg would have moved', () => {
    const { answers } = recorded('failed-deposit');
    const source = sourceOfTxResponse('weft-l1-1', answers.source!);
    expect(source.code).not.toBe(0);
    expect(source.log).toMatch(/\S/);
    expect(source.events).toEqual([]);
    expect(source.asset).toEqual({ denom: 'uinit', amount: '5' });
    expect(source.tx).toMatchObject({ chainId: 'weft-l1-1', height: Number(answers.source!.height) });
  });
});
