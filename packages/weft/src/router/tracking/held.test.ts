import { describe, expect, it } from 'vitest';
import { ibcDestinationKey, ibcSourceKey } from './chain-events.js';
import { HeldTransfers } from './held.js';
import { apply, data, ev, packet, started } from './test-support/evidence.js';
import type { TrackedTransfer, TransferProgress } from './types.js';

/**
 * The state a router holds, without a chain: each transfer once, found by id and by its source tx, and
 * indexed by exactly the keys its hops still wait on, through holding, advancing and dropping.
 */

let ids = 0;
const held = (progress: TransferProgress, chainId = 'a-1'): TrackedTransfer => ({
  id: String(++ids),
  chainId,
  txHash: String(ids).padStart(64, '0'),
  state: progress.source ? 'STATE_PENDING' : 'STATE_SUBMITTED',
  progress,
  version: 0,
  createdAt: '2026-01-01T00:00:00Z',
  lastProgressAt: '2026-01-01T00:00:00Z',
});

const sent = (sequence: string) =>
  started('a-1', [
    ev('send_packet', packet('channel-0', 'channel-5', sequence, { packet_data: data('uatom') })),
  ]);
const packetId = (sequence: string) => ({
  srcPort: 'transfer',
  srcChannel: 'channel-0',
  dstPort: 'transfer',
  dstChannel: 'channel-5',
  sequence,
});
const dst = (sequence: string) => ibcDestinationKey(packetId(sequence));
const src = (sequence: string) => ibcSourceKey('a-1', packetId(sequence));

describe('the transfers a router holds', () => {
  it('holds a transfer once, found by id, by its source tx and by what its hops wait on', () => {
    const state = new HeldTransfers();
    const transfer = held(sent('1'));
    const entry = state.add(transfer);
    expect(state.add({ ...transfer })).toBe(entry);
    expect(state.size).toBe(1);
    expect(state.get(transfer.id)).toBe(entry);
    expect(state.bySource('a-1', transfer.txHash)).toBe(entry);
    expect(state.bySource('b-1', transfer.txHash)).toBeUndefined();
    expect([...entry.keys].sort()).toEqual([dst('1'), src('1')].sort());
    expect(state.awaiting(dst('1'))).toEqual([entry]);
    expect(state.awaiting(src('1'))).toEqual([entry]);
    expect(entry.lastProgressMs).toBe(Date.parse(transfer.lastProgressAt));
  });

  it('re-indexes an advanced transfer: keys it no longer waits on go, new ones come and are answered', () => {
    const state = new HeldTransfers();
    const entry = state.add(held(sent('2')));
    const other = state.add(held(sent('2'), 'p-1'));
    // A second transfer waiting on the same destination key: both are awaiting it.
    expect(state.awaiting(dst('2'))).toHaveLength(2);

    const progress = structuredClone(entry.transfer.progress);
    apply(progress, 'b-1', [ev('recv_packet', packet('channel-0', 'channel-5', '2'))]);
    apply(progress, 'a-1', [ev('acknowledge_packet', packet('channel-0', 'channel-5', '2'))]);
    expect(state.update(entry, { ...entry.transfer, progress })).toEqual([]);
    expect(entry.keys.size).toBe(0);
    expect(state.awaiting(dst('2'))).toEqual([other]);
    expect(state.awaiting(src('2'))).toEqual([other]);
    // Still held (its status answers from memory until it is dropped).
    expect(state.get(entry.transfer.id)).toBe(entry);

    // A source tx seen: it waits on its hops from then on, and says which keys are new.
    const unseen = state.add(held({ hops: [], watch: {} }));
    expect(unseen.keys.size).toBe(0);
    const added = state.update(unseen, { ...unseen.transfer, progress: sent('3') });
    expect(added.sort()).toEqual([dst('3'), src('3')].sort());
    expect(state.awaiting(dst('3'))).toEqual([unseen]);
  });

  it('drops a transfer from every index, and ignores what comes for it afterwards', () => {
    const state = new HeldTransfers();
    const entry = state.add(held(sent('4')));
    state.drop(entry);
    expect(entry.dropped).toBe(true);
    expect(state.size).toBe(0);
    expect(state.get(entry.transfer.id)).toBeUndefined();
    expect(state.bySource('a-1', entry.transfer.txHash)).toBeUndefined();
    expect(state.awaiting(dst('4'))).toEqual([]);
    expect(state.update(entry, { ...entry.transfer, progress: sent('5') })).toEqual([]);
    expect(state.awaiting(dst('5'))).toEqual([]);
    // Held again (claimed back later): a new entry, indexed afresh.
    const again = state.add(entry.transfer);
    expect(again).not.toBe(entry);
    expect(state.awaiting(dst('4'))).toEqual([again]);
    // Dropping the old entry again does not touch the new one.
    state.drop(entry);
    expect(state.get(entry.transfer.id)).toBe(again);
  });

  it('names the transfers a block touches: a source tx awaited on its chain, or a key one of its txs answers', () => {
    const state = new HeldTransfers();
    const waiting = state.add(held(sent('6')));
    const unseen = state.add(held({ hops: [], watch: {} }));
    const elsewhere = state.add(held({ hops: [], watch: {} }, 'c-1'));
    const recv = { chainId: 'b-1', txHash: 'AB', height: 9, time: '2026-01-01T00:00:01Z' };
    const block = {
      hashes: [unseen.transfer.txHash, elsewhere.transfer.txHash, waiting.transfer.txHash],
      txs: [
        {
          tx: recv,
          events: [{ type: 'ibc_recv' as const, packet: packetId('6') }],
        },
      ],
    };
    // On a-1: the unseen transfer's source tx (the other one is on c-1; the seen one is not awaited).
    expect(state.touchedBy('a-1', { hashes: block.hashes, txs: [] })).toEqual([unseen]);
    expect(state.touchedBy('b-1', block)).toEqual([waiting]);
    expect(state.touchedBy('c-1', { hashes: block.hashes, txs: [] })).toEqual([elsewhere]);
  });
});
