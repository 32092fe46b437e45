import { describe, expect, it } from 'vitest';
import { A_COS, A_ETH, B, BUNDLE, C20, COLLECTOR, FEE, OPERATOR } from './fixtures/evm-block.js';
import { readable } from './fixtures/readable.js';
import { erc20TransferDeltas } from './rich-list.js';

const delta = (account: string, denom: string, amount: number) => ({
  account: `0x${account}`,
  denom: `0x${denom}`,
  delta: String(amount),
});

describe('erc20TransferDeltas', () => {
  it('sums ERC20 transfers of tx and block-level events per holder and token, skipping the zero address', () => {
    // BeginBlock pays the collected fees out; tx 0 transfers 1000 and mints 10; failed tx 1 still paid 2.
    expect(readable(erc20TransferDeltas(BUNDLE))).toEqual([
      delta(COLLECTOR, FEE, -498),
      delta(OPERATOR, FEE, 500),
      delta(A_ETH, C20, -1000),
      delta(B, C20, 1010),
      delta(A_COS, FEE, -2),
    ]);
  });

  it('reads tx events only when asked, as rollytics does', () => {
    expect(readable(erc20TransferDeltas(BUNDLE, { blockEvents: false }))).toEqual([
      delta(A_ETH, C20, -1000),
      delta(B, C20, 1010),
      delta(A_COS, FEE, -2),
      delta(COLLECTOR, FEE, 2),
    ]);
  });

  it('gives nothing for a block without transfers', () => {
    expect(erc20TransferDeltas({ blockResults: { txs_results: null, finalize_block_events: [] } })).toEqual(
      [],
    );
  });
});
