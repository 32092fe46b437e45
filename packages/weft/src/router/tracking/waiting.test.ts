import { describe, expect, it } from 'vitest';
import { outcomeOf } from './state.js';
import { explorerLinks, statusJson } from './status-json.js';
import { apply, data, ev, packet, started } from './test-support/evidence.js';
import type { TransferProgress } from './types.js';
import type { ChainClock } from './waiting.js';

/**
 * What a pending transfer waits for, in its status (`waiting_for` of each transfer): an IBC packet its
 * relay while its timeout has not passed on the destination (as the destination's latest block read
 * tells), a withdrawal or a failed deposit's refund its claim on the L1. Meanwhile `state` and `status`,
 * all InterwovenKit reads, stay pending.
 */

const link = explorerLinks([]);
const NOW = Date.parse('2026-01-01T00:00:00Z');
const ns = (ms: number) => `${ms}000000`;
const timeouts = { packet_timeout_height: '1-500', packet_timeout_timestamp: ns(NOW + 60_000) };

/** The status with these chains' latest blocks known (none: no chain's). */
const status = (p: TransferProgress, clocks: Record<string, ChainClock> = {}) =>
  statusJson(p, outcomeOf(p), link, (chainId) => clocks[chainId]);
const waitingFor = (p: TransferProgress, clocks: Record<string, ChainClock> = {}) =>
  status(p, clocks).transfers[0]!.waiting_for;
const at = (height: number, timeMs = NOW): ChainClock => ({ height, timeMs });

describe('what a pending transfer waits for', () => {
  it('an IBC packet waits on its relay until its timeout height or time passes on the destination', () => {
    const p = started('p-1', [
      ev('send_packet', packet('channel-0', 'channel-5', '20', { packet_data: data('uatom'), ...timeouts })),
    ]);
    expect(p.hops[0]).toMatchObject({ timeoutHeight: '1-500', timeoutTimestamp: ns(NOW + 60_000) });
    const pending = status(p, { 'b-1': at(499, NOW + 59_000) });
    expect(pending).toMatchObject({ state: 'STATE_PENDING', status: 'STATE_PENDING' });
    expect(pending.transfers[0]!.waiting_for).toEqual({
      type: 'IBC_RELAY',
      transfer_sequence_index: 0,
      chain_id: 'b-1',
      timeout_height: '1-500',
      timeout_timestamp: ns(NOW + 60_000),
    });
    // Nothing read of the destination yet: its timeout cannot have been seen passing.
    expect(waitingFor(p, { 'b-1': at(0, 0) })).toMatchObject({ type: 'IBC_RELAY' });
    // Passed by height or by time, or a destination without a clock (silent, not followed): no wait
    // vouched for, though the transfer stays pending until the timeout is relayed or it is abandoned.
    expect(waitingFor(p, { 'b-1': at(500) })).toBeNull();
    expect(waitingFor(p, { 'b-1': at(10, NOW + 60_000) })).toBeNull();
    expect(waitingFor(p)).toBeNull();
    expect(status(p, { 'b-1': at(500) }).state).toBe('STATE_PENDING');

    apply(p, 'b-1', [ev('recv_packet', packet('channel-0', 'channel-5', '20'))]);
    expect(waitingFor(p, { 'b-1': at(499) })).toBeNull();
  });

  it('a timeout height of an earlier revision has passed; with none the timestamp alone counts', () => {
    const old = started('p-1', [
      ev('send_packet', packet('channel-0', 'channel-5', '21', { packet_timeout_height: '0-900' })),
    ]);
    expect(waitingFor(old, { 'b-1': at(5) })).toBeNull();
    const timed = started('p-1', [
      ev(
        'send_packet',
        packet('channel-0', 'channel-5', '22', { ...timeouts, packet_timeout_height: '0-0' }),
      ),
    ]);
    expect(timed.hops[0]).not.toHaveProperty('timeoutHeight');
    expect(waitingFor(timed, { 'b-1': at(10_000, NOW + 1_000) })).toMatchObject({
      type: 'IBC_RELAY',
      timeout_height: null,
    });
  });

  it("a forward's packet is what the transfer waits for once the first one is received", () => {
    const p = started('p-1', [ev('send_packet', packet('channel-0', 'channel-5', '23', timeouts))]);
    apply(p, 'b-1', [
      ev('recv_packet', packet('channel-0', 'channel-5', '23')),
      ev(
        'send_packet',
        packet('channel-6', 'channel-9', '23', { packet_timeout_timestamp: ns(NOW + 600_000) }),
      ),
    ]);
    expect(p.hops[1]).toMatchObject({ toChainId: 'c-1', timeoutTimestamp: ns(NOW + 600_000) });
    expect(waitingFor(p, { 'b-1': at(600), 'c-1': at(7) })).toEqual({
      type: 'IBC_RELAY',
      transfer_sequence_index: 1,
      chain_id: 'c-1',
      timeout_height: null,
      timeout_timestamp: ns(NOW + 600_000),
    });
  });

  it('a withdrawal waits on its finalization until it is claimed, a failed deposit on its refund', () => {
    const w = started('l2-1', [
      ev('initiate_token_withdrawal', {
        l2_sequence: '31',
        denom: 'l2/ab',
        base_denom: 'uinit',
        amount: '5',
      }),
    ]);
    const pending = status(w);
    expect(pending).toMatchObject({ state: 'STATE_PENDING', status: 'STATE_PENDING' });
    expect(pending.transfers[0]!.waiting_for).toEqual({
      type: 'OPINIT_FINALIZATION',
      transfer_sequence_index: 0,
      chain_id: 'l1-1',
      op_init_bridge_id: '7',
      l2_sequence: '31',
    });
    apply(w, 'l1-1', [ev('finalize_token_withdrawal', { bridge_id: '7', l2_sequence: '31' })]);
    expect(status(w)).toMatchObject({ state: 'STATE_COMPLETED_SUCCESS', transfers: [{ waiting_for: null }] });

    const d = started('l1-1', [
      ev('initiate_token_deposit', {
        bridge_id: '7',
        l1_sequence: '40',
        l1_denom: 'uinit',
        l2_denom: 'l2/ab',
      }),
    ]);
    // A deposit waits on the executor alone, which may be gone: no wait vouched for.
    expect(waitingFor(d)).toBeNull();
    apply(d, 'l2-1', [
      ev('finalize_token_deposit', {
        l1_sequence: '40',
        denom: 'l2/ab',
        success: 'false',
        reason: 'deposit failed; x',
      }),
      ev('initiate_token_withdrawal', {
        l2_sequence: '32',
        denom: 'l2/ab',
        base_denom: 'uinit',
        amount: '1',
      }),
    ]);
    expect(status(d)).toMatchObject({ state: 'STATE_PENDING_ERROR', status: 'STATE_PENDING_ERROR' });
    expect(waitingFor(d)).toEqual({
      type: 'OPINIT_FINALIZATION',
      transfer_sequence_index: 0,
      chain_id: 'l1-1',
      op_init_bridge_id: '7',
      l2_sequence: '32',
    });
  });
});
