import { describe, expect, it } from 'vitest';
import type { AbciEvent } from '../../protocol/events.js';
import { applyEvidence, applySourceTx, type BlockEvidence, type InFlight } from './apply-evidence.js';
import { eventsOfCosmosTx } from './chain-events.js';
import type { SourceTx } from './chain-reader.js';
import { outcomeOf } from './state.js';
import { chains, data, ev, packet } from './test-support/evidence.js';
import type { ChainTx } from './types.js';

/**
 * "Apply a block's evidence to the transfers in flight", without a chain. The blocks are built from the
 * types, in the shape `createChainReader` gives them (`BlockEvents`: the block's normalised tx hashes, and
 * each successful tx with transfer events as `{tx, events}`, its events decoded by `eventsOfCosmosTx` from
 * ABCI events with ibc-go's and ICS-20's attribute names, as `test-support/evidence.ts` writes them).
 * The chains are those of `test-support/evidence.ts`: p-1's channel-0 reaches b-1, whose channel-6 reaches c-1.
 */

let height = 100;
const txOn = (chainId: string, hash: string): ChainTx => ({
  chainId,
  txHash: hash.toUpperCase(),
  height: ++height,
  time: `2026-01-01T00:00:${String(height % 60).padStart(2, '0')}Z`,
});

/** A block as the chain reader gives it: every tx's hash, and the txs that carry transfer events. */
function block(chainId: string, txs: Array<{ hash: string; events: AbciEvent[] }>): BlockEvidence {
  return {
    chainId,
    hashes: txs.map((t) => t.hash.toLowerCase()),
    txs: txs
      .map((t) => ({ tx: txOn(chainId, t.hash), events: eventsOfCosmosTx(t.events) }))
      .filter((t) => t.events.length > 0),
  };
}

const hash = (n: number) => n.toString(16).padStart(64, '0');

const tracked = (id: string, chainId: string, txHash: string): InFlight => ({
  id,
  chainId,
  txHash,
  state: 'STATE_SUBMITTED',
  progress: { hops: [], watch: {} },
});

const first = packet('channel-0', 'channel-1', '7');
const second = packet('channel-6', 'channel-2', '3');

/** A transfer whose source tx on p-1 was read: it sent `first` towards b-1. */
function sentFromP1(id: string, n: number): InFlight {
  const sent: SourceTx = {
    tx: txOn('p-1', hash(n)),
    code: 0,
    log: '',
    events: eventsOfCosmosTx([ev('send_packet', { ...first, packet_data: data('uinit') })]),
  };
  const progress = applySourceTx({ hops: [], watch: {} }, sent, chains, {});
  return { ...tracked(id, 'p-1', hash(n)), progress, state: outcomeOf(progress).state };
}

describe('applying a block’s evidence to the transfers in flight', () => {
  it('follows a forwarded IBC transfer through its whole life, block by block', () => {
    let transfer = tracked('1', 'p-1', hash(1));
    const untouched = tracked('2', 'p-1', hash(2));
    const before = structuredClone([transfer, untouched]);

    // The source tx lands on p-1: the block names it, and the driver reads it whole.
    const sourceBlock = block('p-1', [{ hash: hash(1), events: [] }]);
    const seen = applyEvidence([transfer, untouched], sourceBlock, chains);
    expect(seen).toEqual({
      updated: [],
      effects: [{ kind: 'read-source', id: '1', chainId: 'p-1', txHash: hash(1) }],
    });
    // Elsewhere, the same hash is not this transfer's source tx.
    expect(applyEvidence([transfer], { ...sourceBlock, chainId: 'b-1' }, chains).effects).toEqual([]);

    const source: SourceTx = {
      tx: txOn('p-1', hash(1)),
      code: 0,
      log: '',
      events: eventsOfCosmosTx([ev('send_packet', { ...first, packet_data: data('uinit') })]),
      asset: { denom: 'uinit', amount: '100' },
    };
    const progress = applySourceTx(transfer.progress, source, chains, { 'p-1': 90, 'b-1': 0 });
    expect(progress.watch).toEqual({ 'p-1': 90, 'b-1': 1 });
    expect(progress.hops).toMatchObject([
      { kind: 'ibc', fromChainId: 'p-1', toChainId: 'b-1', sequence: '7' },
    ]);
    transfer = { ...transfer, progress, state: outcomeOf(progress).state };
    expect(transfer.state).toBe('STATE_PENDING');

    // b-1 receives it and, in the same msg, forwards it on to c-1 (packet-forward middleware).
    const forward = block('b-1', [
      { hash: hash(10), events: [ev('transfer', { amount: '1' })] },
      {
        hash: hash(11),
        events: [
          ev('recv_packet', first),
          ev('send_packet', { ...second, packet_data: data('transfer/channel-1/uinit') }),
        ],
      },
    ]);
    const forwarded = applyEvidence([transfer, untouched], forward, chains);
    expect(forwarded.effects).toEqual([]);
    expect(forwarded.updated).toHaveLength(1);
    transfer = forwarded.updated[0]!;
    expect(transfer.state).toBe('STATE_PENDING');
    expect(transfer.progress.hops).toMatchObject([
      { toChainId: 'b-1', receive: { txHash: hash(11).toUpperCase() }, forwardedTo: 1 },
      { fromChainId: 'b-1', toChainId: 'c-1', srcChannel: 'channel-6', sequence: '3' },
    ]);
    // The same block again teaches nothing: followers replay blocks after a restart.
    expect(applyEvidence([transfer], forward, chains).updated).toEqual([]);

    // c-1 receives it and writes a success ack: the asset is released on c-1.
    const delivered = applyEvidence(
      [transfer],
      block('c-1', [
        {
          hash: hash(12),
          events: [
            ev('recv_packet', second),
            ev('write_acknowledgement', { ...second, packet_ack: '{"result":"AQ=="}' }),
          ],
        },
      ]),
      chains,
    );
    transfer = delivered.updated[0]!;
    expect(transfer.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(outcomeOf(transfer.progress).release).toMatchObject({ chain_id: 'c-1', released: true });

    // The acks travelling back change the evidence, not the outcome.
    const acked = applyEvidence(
      [transfer],
      block('b-1', [{ hash: hash(13), events: [ev('acknowledge_packet', second)] }]),
      chains,
    );
    expect(acked.updated[0]!.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(acked.updated[0]!.progress.hops[1]).toHaveProperty('acknowledge');

    // Nothing given was changed.
    expect([tracked('1', 'p-1', hash(1)), untouched]).toEqual(before);
  });

  it('applies a block again once a tx of it adds a hop, so an earlier tx answering the new hop is not missed', () => {
    const transfer = sentFromP1('3', 20);
    // Recorded out of order (a follower's retained txs come by key, not by height): the forward's timeout
    // on b-1 before the receive on b-1 that starts the forward.
    const [updated] = applyEvidence(
      [transfer],
      block('b-1', [
        { hash: hash(21), events: [ev('timeout_packet', second)] },
        {
          hash: hash(22),
          events: [ev('recv_packet', first), ev('send_packet', { ...second, packet_data: data('x') })],
        },
      ]),
      chains,
    ).updated;
    expect(updated!.progress.hops[1]).toHaveProperty('timeout');
    expect(updated!.state).toBe('STATE_PENDING_ERROR');
  });

  it('applies evidence of several chains given at once: an ack listed before its receive keeps both', () => {
    const transfer = sentFromP1('4', 40);
    const ack = block('p-1', [
      {
        hash: hash(41),
        events: [ev('acknowledge_packet', first), ev('fungible_token_packet', { error: 'bad receiver' })],
      },
    ]);
    const received = block('b-1', [
      {
        hash: hash(42),
        events: [
          ev('recv_packet', first),
          ev('write_acknowledgement', { ...first, packet_ack: '{"error":"bad receiver"}' }),
        ],
      },
    ]);
    const retained = { chainId: 'p-1', hashes: [], txs: [...ack.txs, ...received.txs] };
    const [updated] = applyEvidence([transfer], retained, chains).updated;
    expect(updated!.progress.hops[0]).toMatchObject({
      toChainId: 'b-1',
      receive: { chainId: 'b-1' },
      acknowledge: { error: 'bad receiver' },
    });
    expect(updated!.state).toBe('STATE_COMPLETED_ERROR');
  });

  it('a failed source tx ends the transfer with no hops, released on the source', () => {
    const source: SourceTx = {
      tx: txOn('p-1', hash(30)),
      code: 5,
      log: 'insufficient funds',
      events: [],
      asset: { denom: 'uinit', amount: '9' },
    };
    const progress = applySourceTx({ hops: [], watch: {} }, source, chains, { 'p-1': 50 });
    expect(progress.hops).toEqual([]);
    expect(progress.watch).toEqual({});
    expect(progress.source).toMatchObject({ code: 5, log: 'insufficient funds', denom: 'uinit' });
    expect(outcomeOf(progress)).toMatchObject({
      state: 'STATE_COMPLETED_ERROR',
      release: { chain_id: 'p-1', released: true },
    });
  });
});
