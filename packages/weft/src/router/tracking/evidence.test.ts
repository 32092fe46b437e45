import { describe, expect, it } from 'vitest';
import {
  ibcDestinationKey,
  ibcSourceKey,
  omnichainKey,
  opWithdrawalKey,
  type TrackEvent,
} from './chain-events.js';
import { applyTx, chainDirectory, hopsOfSourceTx, waitKeys } from './evidence.js';
import type { ChainTx, Hop, TransferProgress } from './types.js';

/**
 * Recording evidence, on events as `chain-events.ts` decodes them: which hops a source tx starts and where
 * they go by the registry, that a tx seen twice or out of order records the same, that evidence of another
 * packet, deposit or pathway is not taken, and what each hop still waits on. (`state.test.ts` runs the
 * state machine on the same rules from ABCI events.)
 */

const chains = chainDirectory([
  { chainId: 'l1-1', kind: 'cosmos', isL1: true, ibcPeers: { 'channel-2': 'l2-1' }, omnichainEid: 1 },
  { chainId: 'l2-1', kind: 'cosmos', opBridgeId: '7', omnichainEid: 2 },
  { chainId: 'evm-1', kind: 'evm', omnichainEid: 3 },
]);

let n = 0;
const tx = (chainId: string): ChainTx => ({
  chainId,
  txHash: String(++n).padStart(64, '0'),
  height: n,
  time: '2026-01-01T00:00:00Z',
});
const pkt = {
  srcPort: 'transfer',
  srcChannel: 'channel-2',
  dstPort: 'transfer',
  dstChannel: 'channel-0',
  sequence: '4',
};
const SENDER = `0x${'ab'.repeat(32)}`;

const source = (chainId: string, events: TrackEvent[]): TransferProgress => {
  const sent = tx(chainId);
  return { source: { ...sent, code: 0 }, hops: hopsOfSourceTx(sent, events, chains), watch: {} };
};

describe('recording evidence', () => {
  it('names each hop a source tx starts, with its destination from the registry', () => {
    const sent = tx('l1-1');
    const hops = hopsOfSourceTx(
      sent,
      [
        { type: 'ibc_send', packet: pkt, denom: 'uinit', amount: '5', timeoutTimestamp: '99' },
        { type: 'op_deposit', bridgeId: '7', sequence: '3', l1Denom: 'uinit', l2Denom: 'l2/x', amount: '6' },
        { type: 'omni_sent', guid: '0x01', srcEid: 1, dstEid: 3, sender: SENDER, nonce: '8', amount: '7' },
        { type: 'op_claim', bridgeId: '7', sequence: '1' },
      ],
      chains,
    );
    expect(hops).toEqual([
      {
        kind: 'ibc',
        fromChainId: 'l1-1',
        toChainId: 'l2-1',
        ...pkt,
        denom: 'uinit',
        amount: '5',
        timeoutTimestamp: '99',
        send: sent,
      },
      expect.objectContaining({
        kind: 'opinit',
        direction: 'deposit',
        toChainId: 'l2-1',
        sequence: '3',
        toDenom: 'l2/x',
      }),
      expect.objectContaining({ kind: 'omnichain', toChainId: 'evm-1', nonce: '8', amount: '7' }),
    ]);
    const [withdrawal] = hopsOfSourceTx(
      tx('l2-1'),
      [{ type: 'op_withdraw', sequence: '2', denom: 'l2/x', baseDenom: 'uinit', amount: '1' }],
      chains,
    );
    expect(withdrawal).toMatchObject({
      direction: 'withdrawal',
      toChainId: 'l1-1',
      bridgeId: '7',
      toDenom: 'uinit',
    });
  });

  it('records a tx once, and the same evidence in either order', () => {
    const ack = { tx: tx('l1-1'), events: [{ type: 'ibc_ack', packet: pkt } as TrackEvent] };
    const recv = {
      tx: tx('l2-1'),
      events: [
        { type: 'ibc_recv', packet: pkt },
        { type: 'ibc_write_ack', packet: pkt },
      ] as TrackEvent[],
    };
    const send = [{ type: 'ibc_send', packet: pkt, denom: 'uinit' } as TrackEvent];
    const inOrder = source('l1-1', send);
    const reversed = structuredClone(inOrder);
    for (const t of [recv, ack]) expect(applyTx(inOrder, t.tx, t.events, chains)).toBe(true);
    for (const t of [ack, recv]) expect(applyTx(reversed, t.tx, t.events, chains)).toBe(true);
    expect(reversed).toEqual(inOrder);
    for (const t of [recv, ack]) expect(applyTx(inOrder, t.tx, t.events, chains)).toBe(false);
    expect(waitKeys(inOrder.hops[0]!)).toEqual([]);
  });

  it('leaves out evidence of another packet, deposit or pathway', () => {
    const progress = source('l1-1', [
      { type: 'ibc_send', packet: pkt },
      { type: 'op_deposit', bridgeId: '7', sequence: '3', l1Denom: 'uinit', l2Denom: 'l2/x', amount: '6' },
      { type: 'omni_sent', guid: '0x01', srcEid: 1, dstEid: 3, sender: SENDER, nonce: '8' },
    ]);
    const other: Array<[string, TrackEvent]> = [
      ['l2-1', { type: 'ibc_recv', packet: { ...pkt, sequence: '5' } }],
      // The packet's own sender never receives it (both ends may share a channel id).
      ['l1-1', { type: 'ibc_recv', packet: pkt }],
      ['l2-1', { type: 'op_finalize', sequence: '3', denom: 'l2/y', success: true }],
      ['l2-1', { type: 'op_finalize', sequence: '4', denom: 'l2/x', success: true }],
      // Nonces count per pathway: the same origin delivered on another chain is another packet.
      ['l2-1', { type: 'omni_delivered', srcEid: 1, sender: SENDER, nonce: '8' }],
      ['evm-1', { type: 'omni_delivered', srcEid: 1, sender: SENDER, nonce: '9' }],
    ];
    for (const [chainId, event] of other) expect(applyTx(progress, tx(chainId), [event], chains)).toBe(false);
  });

  it('says what each hop still waits on', () => {
    const [ibc, deposit, oft] = source('l1-1', [
      { type: 'ibc_send', packet: pkt },
      { type: 'op_deposit', bridgeId: '7', sequence: '3', l1Denom: 'uinit', l2Denom: 'l2/x', amount: '6' },
      { type: 'omni_sent', guid: '0x01', srcEid: 1, dstEid: 3, sender: SENDER, nonce: '8' },
    ]).hops as [Hop, Hop, Hop];
    expect(waitKeys(ibc)).toEqual([ibcDestinationKey(pkt), ibcSourceKey('l1-1', pkt)]);
    expect(waitKeys(deposit)).toEqual(['op-dep|l2/x|3']);
    expect(waitKeys(oft)).toEqual([omnichainKey('evm-1', 1, SENDER, '8')]);
    expect(waitKeys({ ...oft, toChainId: undefined } as Hop)).toEqual([]);

    // A deposit that failed waits on the claim of the withdrawal refunding it.
    const failed = source('l1-1', [
      { type: 'op_deposit', bridgeId: '7', sequence: '3', l1Denom: 'uinit', l2Denom: 'l2/x', amount: '6' },
    ]);
    applyTx(
      failed,
      tx('l2-1'),
      [
        { type: 'op_finalize', sequence: '3', denom: 'l2/x', success: false, reason: 'deposit failed; no' },
        { type: 'op_withdraw', sequence: '11', denom: 'l2/x', baseDenom: 'uinit', amount: '6' },
      ],
      chains,
    );
    expect(waitKeys(failed.hops[0]!)).toEqual([opWithdrawalKey('7', '11')]);
    applyTx(failed, tx('l1-1'), [{ type: 'op_claim', bridgeId: '7', sequence: '11' }], chains);
    expect(waitKeys(failed.hops[0]!)).toEqual([]);
  });
});
