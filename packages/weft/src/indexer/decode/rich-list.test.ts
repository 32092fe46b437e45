import { describe, expect, it } from 'vitest';
import { captureDrops } from '../test-support/drops.js';
import {
  A_COS,
  A_ETH,
  B,
  BUNDLE,
  C20,
  COLLECTOR,
  FEE,
  LOGS,
  OPERATOR,
  TRANSFER,
  topic,
  u256,
} from './fixtures/evm-block.js';
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

  it('counts and reports the Transfer logs it cannot read, and keeps the rest', async () => {
    const log = (topics: string[], data: string) => JSON.stringify({ address: `0x${C20}`, topics, data });
    const attrs = [
      { key: 'log', value: `{"address":"0x${C20}","topics":["${TRANSFER}"` },
      { key: 'log', value: log([TRANSFER, topic(A_ETH), topic(B)], '0xnot-an-amount') },
      { key: 'log', value: JSON.stringify({ address: `0x${C20}`, topics: `${TRANSFER}` }) },
      // One side is no address: the other side still counts.
      { key: 'log', value: log([TRANSFER, `0x${'zz'.repeat(32)}`, topic(B)], `0x${u256(3)}`) },
      { key: 'log', value: LOGS.erc20 },
      // An ERC721 Transfer is not the rich list's, and not malformed.
      { key: 'log', value: LOGS.mint721 },
    ];
    const bundle = {
      height: 77,
      blockResults: { txs_results: [{ events: [{ type: 'evm', attributes: attrs }] }] },
    };
    const { drops, counts, warnings, advance } = captureDrops();
    expect(readable(erc20TransferDeltas(bundle, { drops }))).toEqual([
      delta(B, C20, 1003),
      delta(A_ETH, C20, -1000),
    ]);
    expect(await counts()).toEqual({
      'rich_list/bad_json': 1,
      'rich_list/bad_amount': 1,
      'rich_list/bad_log': 1,
      'rich_list/bad_address': 1,
    });
    expect(warnings()).toEqual([
      expect.objectContaining({ decoder: 'rich_list', reason: 'bad_json', height: 77 }),
    ]);

    // The same block again within the minute: counted, not logged; a minute on, logged with the rest.
    erc20TransferDeltas(bundle, { drops });
    expect(warnings()).toHaveLength(1);
    advance(60_000);
    erc20TransferDeltas(bundle, { drops });
    expect(await counts()).toMatchObject({ 'rich_list/bad_json': 3 });
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatchObject({ decoder: 'rich_list', suppressedSinceLastWarning: 7 });
  });

  it('drops nothing of a well-formed block', async () => {
    const { drops, counts } = captureDrops();
    erc20TransferDeltas(BUNDLE, { drops });
    expect(await counts()).toEqual({});
  });
});
