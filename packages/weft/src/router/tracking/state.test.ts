import { concatHex, numberToHex, pad } from 'viem';
import { describe, expect, it } from 'vitest';
import { applyTx } from './evidence.js';
import { outcomeOf, receivedDenom } from './state.js';
import { explorerLinks, statusJson } from './status-json.js';
import { apply, chains, data, ev, packet, started } from './test-support/evidence.js';
import type { IbcHop, TransferProgress } from './types.js';

/**
 * The state machine on evidence as the chains write it (ABCI events with ibc-go's, ICS-20's and OPinit's
 * attributes), in any order: IBC success, error ack, timeout, a two-hop forward succeeding or failing on
 * its second hop, a failed deposit refunded through a withdrawal (which the devnet's executor does not
 * produce on demand), a submitted and an abandoned transfer.
 */

const link = explorerLinks([]);

const status = (progress: TransferProgress) => statusJson(progress, outcomeOf(progress), link);

describe('the tracking state machine', () => {
  it('an IBC transfer: PENDING, RECEIVED, then COMPLETED_SUCCESS with the voucher released', () => {
    const p = started('a-1', [
      ev('send_packet', packet('channel-0', 'channel-5', '3', { packet_data: data('uatom') })),
    ]);
    expect(outcomeOf(p).state).toBe('STATE_PENDING');
    expect(apply(p, 'b-1', [ev('recv_packet', packet('channel-0', 'channel-5', '3'))])).toBe(true);
    expect(status(p).transfer_sequence[0]).toMatchObject({
      ibc_transfer: { state: 'TRANSFER_RECEIVED', to_chain_id: 'b-1' },
    });
    apply(p, 'b-1', [
      ev('write_acknowledgement', packet('channel-0', 'channel-5', '3', { packet_ack: '{"result":"AQ=="}' })),
    ]);
    const done = status(p);
    expect(done).toMatchObject({
      state: 'STATE_COMPLETED_SUCCESS',
      status: 'STATE_COMPLETED',
      next_blocking_transfer: null,
      error: null,
    });
    expect(done.transfer_asset_release).toMatchObject({
      chain_id: 'b-1',
      denom: expect.stringMatching(/^ibc\/[0-9A-F]{64}$/),
      released: true,
    });
    // The same tx again changes nothing.
    expect(applyTx(p, p.hops[0]!.send, [], chains)).toBe(false);
  });

  it('an error ack: PENDING_ERROR until the sender refunds, then COMPLETED_ERROR released on the sender', () => {
    const p = started('a-1', [
      ev('send_packet', packet('channel-0', 'channel-5', '4', { packet_data: data('uatom') })),
    ]);
    apply(p, 'b-1', [
      ev('recv_packet', packet('channel-0', 'channel-5', '4')),
      ev(
        'write_acknowledgement',
        packet('channel-0', 'channel-5', '4', { packet_ack: '{"error":"ABCI code: 5: insufficient funds"}' }),
      ),
    ]);
    expect(status(p)).toMatchObject({
      state: 'STATE_PENDING_ERROR',
      status: 'STATE_PENDING_ERROR',
      transfer_asset_release: { chain_id: 'a-1', denom: 'uatom', released: false },
      error: { type: 'STATUS_ERROR_TRANSFER' },
    });
    apply(p, 'a-1', [
      ev('acknowledge_packet', packet('channel-0', 'channel-5', '4')),
      ev('fungible_token_packet', { error: 'insufficient funds' }),
    ]);
    const done = status(p);
    expect(done).toMatchObject({
      state: 'STATE_COMPLETED_ERROR',
      status: 'STATE_COMPLETED',
      transfer_asset_release: { chain_id: 'a-1', released: true },
    });
    expect(done.transfer_sequence[0]).toMatchObject({
      ibc_transfer: {
        state: 'TRANSFER_FAILURE',
        packet_txs: { error: { type: 'PACKET_ERROR_ACKNOWLEDGEMENT' } },
      },
    });
  });

  it('a timeout: COMPLETED_ERROR with PACKET_ERROR_TIMEOUT, even when the timeout is seen first', () => {
    const p = started('a-1', [
      ev('send_packet', packet('channel-0', 'channel-5', '5', { packet_data: data('uatom') })),
    ]);
    apply(p, 'a-1', [ev('timeout_packet', packet('channel-0', 'channel-5', '5'))]);
    const done = status(p);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.transfer_sequence[0]).toMatchObject({
      ibc_transfer: {
        state: 'TRANSFER_FAILURE',
        packet_txs: { timeout_tx: { chain_id: 'a-1' }, error: { type: 'PACKET_ERROR_TIMEOUT' } },
      },
    });
  });

  it('a packet whose two ends share a channel id: the receive of the one going the other way is not its', () => {
    // p-1's channel-0 leads to b-1's channel-0; b-1 sent its own sequence 1 the other way before.
    const p = started('p-1', [
      ev('send_packet', packet('channel-0', 'channel-0', '1', { packet_data: data('uatom') })),
    ]);
    const recv = [
      ev('recv_packet', packet('channel-0', 'channel-0', '1')),
      ev('write_acknowledgement', packet('channel-0', 'channel-0', '1', { packet_ack: '{"result":"AQ=="}' })),
    ];
    expect(apply(p, 'p-1', recv)).toBe(false);
    expect(apply(p, 'c-1', recv)).toBe(false);
    expect(status(p).state).toBe('STATE_PENDING');
    expect(apply(p, 'b-1', recv)).toBe(true);
    expect(status(p)).toMatchObject({
      state: 'STATE_COMPLETED_SUCCESS',
      transfer_sequence: [{ ibc_transfer: { from_chain_id: 'p-1', to_chain_id: 'b-1' } }],
    });
  });

  it('a two-hop forward: the middle receive adds the next hop; success at the end, or an error coming back', () => {
    const forward = (p: TransferProgress, seq: string) =>
      apply(p, 'b-1', [
        ev('recv_packet', packet('channel-0', 'channel-5', seq)),
        ev(
          'send_packet',
          packet('channel-6', 'channel-9', seq, { packet_data: data('transfer/channel-5/uatom') }),
        ),
      ]);
    const ok = started('a-1', [
      ev('send_packet', packet('channel-0', 'channel-5', '6', { packet_data: data('uatom') })),
    ]);
    forward(ok, '6');
    expect(ok.hops).toHaveLength(2);
    expect(status(ok)).toMatchObject({
      state: 'STATE_PENDING',
      next_blocking_transfer: { transfer_sequence_index: 0 },
    });
    apply(ok, 'c-1', [
      ev('recv_packet', packet('channel-6', 'channel-9', '6')),
      ev('write_acknowledgement', packet('channel-6', 'channel-9', '6', { packet_ack: '{"result":"AQ=="}' })),
    ]);
    const done = status(ok);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.transfers[0]!.transfer_sequence).toHaveLength(2);
    expect(done.transfer_asset_release).toMatchObject({ chain_id: 'c-1', released: true });

    const failed = started('a-1', [
      ev('send_packet', packet('channel-0', 'channel-5', '7', { packet_data: data('uatom') })),
    ]);
    forward(failed, '7');
    apply(failed, 'b-1', [ev('timeout_packet', packet('channel-6', 'channel-9', '7'))]);
    expect(status(failed)).toMatchObject({
      state: 'STATE_PENDING_ERROR',
      transfer_asset_release: { chain_id: 'a-1', released: false },
    });
    apply(failed, 'a-1', [
      ev('acknowledge_packet', packet('channel-0', 'channel-5', '7')),
      ev('fungible_token_packet', { error: 'forward timed out' }),
    ]);
    expect(status(failed)).toMatchObject({
      state: 'STATE_COMPLETED_ERROR',
      transfer_asset_release: { chain_id: 'a-1', released: true },
    });
  });

  it('a failed deposit: PENDING_ERROR until its refund withdrawal is claimed on the L1', () => {
    const p = started('l1-1', [
      ev('initiate_token_deposit', {
        bridge_id: '7',
        l1_sequence: '12',
        l1_denom: 'uinit',
        l2_denom: 'l2/ab',
        amount: '50',
      }),
    ]);
    expect(p.hops[0]).toMatchObject({ kind: 'opinit', toChainId: 'l2-1' });
    apply(p, 'l2-1', [
      ev('finalize_token_deposit', {
        l1_sequence: '12',
        denom: 'l2/ab',
        success: 'false',
        reason: 'deposit failed; blocked address',
      }),
      ev('initiate_token_withdrawal', {
        l2_sequence: '4',
        denom: 'l2/ab',
        base_denom: 'uinit',
        amount: '50',
      }),
    ]);
    expect(status(p)).toMatchObject({
      state: 'STATE_PENDING_ERROR',
      transfer_asset_release: { chain_id: 'l1-1', denom: 'uinit', released: false },
    });
    apply(p, 'l1-1', [ev('finalize_token_withdrawal', { bridge_id: '7', l2_sequence: '4' })]);
    expect(status(p)).toMatchObject({
      state: 'STATE_COMPLETED_ERROR',
      status: 'STATE_COMPLETED',
      transfer_asset_release: { chain_id: 'l1-1', released: true },
      error: { type: 'STATUS_ERROR_TRANSFER', message: 'deposit failed; blocked address' },
    });
  });

  it('a withdrawal: OPINIT_TRANSFER_SENT until it is claimed on the L1, then released there', () => {
    const p = started('l2-1', [
      ev('initiate_token_withdrawal', {
        l2_sequence: '9',
        denom: 'l2/ab',
        base_denom: 'uinit',
        amount: '40',
      }),
    ]);
    expect(p.hops[0]).toMatchObject({ direction: 'withdrawal', bridgeId: '7', toChainId: 'l1-1' });
    expect(status(p)).toMatchObject({
      state: 'STATE_PENDING',
      next_blocking_transfer: { transfer_sequence_index: 0 },
    });
    apply(p, 'l1-1', [ev('finalize_token_withdrawal', { bridge_id: '7', l2_sequence: '8' })]);
    expect(status(p).state).toBe('STATE_PENDING');
    apply(p, 'l1-1', [ev('finalize_token_withdrawal', { bridge_id: '7', l2_sequence: '9' })]);
    expect(status(p)).toMatchObject({
      state: 'STATE_COMPLETED_SUCCESS',
      transfer_asset_release: { chain_id: 'l1-1', denom: 'uinit', amount: '40', released: true },
    });
  });

  it('an OFT send from the Move side: a failed delivery is kept as error_tx until a retry delivers it', () => {
    const sender = pad('0x01', { size: 32 });
    const payload = concatHex([
      numberToHex(1, { size: 1 }),
      numberToHex(5n, { size: 8 }),
      numberToHex(30_001, { size: 4 }),
      sender,
      numberToHex(30_002, { size: 4 }),
      pad('0x02', { size: 32 }),
      pad('0xaa', { size: 32 }),
      pad('0x03', { size: 32 }),
      numberToHex(1_000_000n, { size: 8 }),
    ]);
    const p = started('l1-1', [ev('PacketSent', { encodedPayload: payload })]);
    expect(p.hops[0]).toMatchObject({
      kind: 'omnichain',
      srcEid: 30_001,
      dstEid: 30_002,
      nonce: '5',
      amount: '1000000',
    });
    const origin = { srcEid: '30001', sender, nonce: '5' };
    apply(p, 'b-1', [ev('PacketVerified', origin)]);
    apply(p, 'b-1', [ev('LzReceiveAlert', { ...origin, reason: 'paused' })]);
    const failing = status(p);
    expect(failing.state).toBe('STATE_PENDING');
    expect(failing.transfer_sequence[0]).toMatchObject({
      layer_zero_transfer: {
        state: 'LAYER_ZERO_TRANSFER_SENT',
        to_chain_id: 'b-1',
        txs: { error_tx: { chain_id: 'b-1' } },
      },
    });
    apply(p, 'b-1', [ev('PacketDelivered', origin)]);
    expect(status(p)).toMatchObject({
      state: 'STATE_COMPLETED_SUCCESS',
      transfer_sequence: [
        { layer_zero_transfer: { state: 'LAYER_ZERO_TRANSFER_RECEIVED', txs: { error_tx: null } } },
      ],
    });
  });

  it('SUBMITTED before the source tx is seen, ABANDONED once given up', () => {
    const p: TransferProgress = { hops: [], watch: {} };
    expect(status(p)).toMatchObject({
      state: 'STATE_SUBMITTED',
      status: 'STATE_SUBMITTED',
      transfer_sequence: [],
    });
    p.abandoned = { reason: 'source tx not seen' };
    expect(status(p)).toMatchObject({
      state: 'STATE_ABANDONED',
      status: 'STATE_COMPLETED',
      error: { message: 'source tx not seen' },
    });
  });
});

describe('the denom an IBC hop delivers', () => {
  const hop = (denom: string): IbcHop => ({
    kind: 'ibc',
    fromChainId: 'rollup-1',
    srcPort: 'transfer',
    srcChannel: 'channel-2',
    dstPort: 'transfer',
    dstChannel: 'channel-9',
    sequence: '1',
    denom,
    send: { chainId: 'rollup-1', height: 1, txHash: 'A', time: '2026-01-01T00:00:00Z' },
  });

  it("is the L1's own move/ denom when it comes home, not a voucher of it", () => {
    expect(receivedDenom(hop('transfer/channel-2/move/ab12'))).toBe('move/ab12');
    expect(receivedDenom(hop('move/ab12'))).toMatch(/^ibc\/[0-9A-F]{64}$/);
  });
});
