import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyEvidence, applySourceTx, type BlockEvidence, type InFlight } from './apply-evidence.js';
import type { SourceTx } from './chain-reader.js';
import { chainDirectory } from './evidence.js';
import { outcomeOf } from './state.js';
import type { TrackedChain, TransactionState } from './types.js';

/**
 * A transfer's whole life from recorded evidence. Each file of `test-support/recorded/` was recorded from
 * a devnet run by `test/router-tracking-record.ts` (its `origin` says which transfer): the source tx as
 * `ChainReader.sourceTx` gave it and every block the completed transfer's evidence names, as
 * `ChainReader.block` gave it. The blocks are fed in the order recorded, as the followers hand them over;
 * like the followers, the test keeps the blocks read so far and offers them again once the source tx is
 * read (its hops' evidence may have come first: a rollup's block can be read before the L1's).
 */

interface Recording {
  origin: string;
  chains: TrackedChain[];
  transfer: { chainId: string; txHash: string };
  source: SourceTx;
  blocks: BlockEvidence[];
  state: TransactionState;
}

const recorded = (name: string): Recording =>
  JSON.parse(readFileSync(new URL(`./test-support/recorded/${name}.json`, import.meta.url), 'utf8'));

/** Plays a recording through the pure core; answers the states the transfer went through and its end. */
function live(recording: Recording) {
  const chains = chainDirectory(recording.chains);
  let transfer: InFlight = {
    id: '1',
    ...recording.transfer,
    state: 'STATE_SUBMITTED',
    progress: { hops: [], watch: {} },
  };
  const states: TransactionState[] = [transfer.state];
  const read: BlockEvidence[] = [];
  const feed = (block: BlockEvidence) => {
    const { updated, effects } = applyEvidence([transfer], block, chains);
    for (const effect of effects) {
      expect(effect).toEqual({ kind: 'read-source', id: '1', ...recording.transfer });
      const progress = applySourceTx(transfer.progress, recording.source, chains, {});
      transfer = { ...transfer, progress, state: outcomeOf(progress).state };
      states.push(transfer.state);
      for (const earlier of read) feed(earlier);
    }
    for (const next of updated) {
      transfer = next;
      states.push(next.state);
    }
  };
  for (const block of recording.blocks) {
    read.push(block);
    feed(block);
  }
  return { transfer, states, chains };
}

describe('a transfer’s whole life from recorded evidence', () => {
  it('a two-hop IBC forward: the middle chain’s receive adds the hop the destination completes', () => {
    const recording = recorded('ibc-forward');
    const { transfer, states, chains } = live(recording);
    expect(states).toEqual(['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_PENDING', 'STATE_COMPLETED_SUCCESS']);
    expect(transfer.state).toBe(recording.state);
    expect(transfer.progress.hops).toMatchObject([
      { fromChainId: 'weft-move-1', toChainId: 'weft-l1-1', forwardedTo: 1 },
      { fromChainId: 'weft-l1-1', toChainId: 'weft-cosmos-1', written: {} },
    ]);
    expect(outcomeOf(transfer.progress).release).toMatchObject({
      chain_id: 'weft-cosmos-1',
      amount: '700',
      released: true,
    });
    // Every block again: nothing new (followers replay blocks after a restart or a takeover).
    for (const block of recording.blocks)
      expect(applyEvidence([transfer], block, chains).updated).toEqual([]);
  });

  it('an OPinit deposit: the rollup’s finalize, read before the L1’s block, is matched once the source is', () => {
    const recording = recorded('opinit-deposit');
    expect(recording.blocks.map((b) => b.chainId)).toEqual(['weft-move-1', 'weft-l1-1']);
    const { transfer, states } = live(recording);
    expect(states).toEqual(['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_COMPLETED_SUCCESS']);
    expect(transfer.progress.hops).toMatchObject([
      { kind: 'opinit', direction: 'deposit', toChainId: 'weft-move-1', receive: { success: true } },
    ]);
    expect(outcomeOf(transfer.progress).release).toMatchObject({ chain_id: 'weft-move-1', amount: '4242' });
  });

  it('a failed source tx: the block names it, the tx read whole ends the transfer', () => {
    const recording = recorded('failed-deposit');
    const { transfer, states } = live(recording);
    expect(states).toEqual(['STATE_SUBMITTED', 'STATE_COMPLETED_ERROR']);
    expect(outcomeOf(transfer.progress)).toMatchObject({
      error: { type: 'STATUS_ERROR_TRANSACTION_EXECUTION' },
      release: { chain_id: 'weft-l1-1', denom: 'uinit', amount: '5', released: true },
    });
  });

  it('an OFT send from an Ethereum tx: verified, then delivered on the destination', () => {
    const recording = recorded('oft-evm');
    const { transfer, states } = live(recording);
    expect(states).toEqual(['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_COMPLETED_SUCCESS']);
    expect(transfer.progress.hops).toMatchObject([
      { kind: 'omnichain', fromChainId: 'weft-evm-1', toChainId: '31337', verify: {}, receive: {} },
    ]);
  });
});
