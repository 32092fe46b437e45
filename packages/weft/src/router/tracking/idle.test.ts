import { describe, expect, it } from 'vitest';
import { idleVerdict } from './idle.js';
import { ev, packet, started } from './test-support/evidence.js';
import type { TrackedTransfer, TransferProgress } from './types.js';
import type { ChainClock } from './waiting.js';

/**
 * The claim round's abandon windows: a source tx never seen, no progress; and not while the transfer
 * waits on something that will happen, from which the window runs once the wait is over.
 */

const windows = { abandonAfterMs: 600_000, unseenAfterMs: 300_000 };
const T = Date.parse('2026-01-01T00:00:00Z');
const HOUR = 3_600_000;
const transfer = (progress: TransferProgress): TrackedTransfer => ({
  id: '1',
  chainId: progress.source?.chainId ?? 'a-1',
  txHash: 'ab'.repeat(32),
  state: 'STATE_PENDING',
  progress,
  version: 1,
  createdAt: new Date(T).toISOString(),
  lastProgressAt: new Date(T).toISOString(),
});
const clocks =
  (byChain: Record<string, ChainClock>) =>
  (chainId: string): ChainClock | undefined =>
    byChain[chainId];

describe('the abandon windows', () => {
  it('a source tx never seen, and a transfer without progress, are abandoned after their windows', () => {
    const unseen = transfer({ hops: [], watch: {} });
    const idle = { lastProgressMs: T, waitedAtMs: 0 };
    expect(idleVerdict(unseen, idle, T + 299_000, windows, clocks({}))).toEqual({ kind: 'live' });
    expect(idleVerdict(unseen, idle, T + 301_000, windows, clocks({}))).toEqual({
      kind: 'abandon',
      reason: 'source tx not seen on a-1 within 300 s',
    });
    const deposit = transfer(
      started('l1-1', [
        ev('initiate_token_deposit', {
          bridge_id: '7',
          l1_sequence: '1',
          l1_denom: 'uinit',
          l2_denom: 'l2/ab',
        }),
      ]),
    );
    expect(idleVerdict(deposit, idle, T + 599_000, windows, clocks({})).kind).toBe('live');
    expect(idleVerdict(deposit, idle, T + 601_000, windows, clocks({}))).toEqual({
      kind: 'abandon',
      reason: 'no progress for 600 s',
    });
  });

  it('a withdrawal waits out its finalization for days without being abandoned', () => {
    const withdrawal = transfer(
      started('l2-1', [
        ev('initiate_token_withdrawal', {
          l2_sequence: '3',
          denom: 'l2/ab',
          base_denom: 'uinit',
          amount: '5',
        }),
      ]),
    );
    const idle = { lastProgressMs: T, waitedAtMs: 0 };
    expect(idleVerdict(withdrawal, idle, T + 7 * 24 * HOUR, windows, clocks({}))).toEqual({
      kind: 'waiting',
    });
  });

  it('a packet waits until its timeout passes on the destination, then gets the window from then', () => {
    const ibc = transfer(
      started('p-1', [
        ev('send_packet', packet('channel-0', 'channel-5', '1', { packet_timeout_height: '1-5000' })),
      ]),
    );
    const idle = { lastProgressMs: T, waitedAtMs: 0 };
    // Hours on a relayer while the destination stays below the timeout height.
    expect(
      idleVerdict(ibc, idle, T + 3 * HOUR, windows, clocks({ 'b-1': { height: 4999, timeMs: T } })),
    ).toEqual({ kind: 'waiting' });
    // The claim round noted that it waited then; the timeout has passed since.
    idle.waitedAtMs = T + 3 * HOUR;
    const passed = clocks({ 'b-1': { height: 5000, timeMs: T } });
    expect(idleVerdict(ibc, idle, T + 3 * HOUR + 599_000, windows, passed).kind).toBe('live');
    expect(idleVerdict(ibc, idle, T + 3 * HOUR + 601_000, windows, passed)).toEqual({
      kind: 'abandon',
      reason: 'no progress for 600 s',
    });
    // A destination that has gone silent (no clock) vouches for nothing either.
    expect(idleVerdict(ibc, idle, T + 3 * HOUR + 601_000, windows, clocks({})).kind).toBe('abandon');
  });
});
