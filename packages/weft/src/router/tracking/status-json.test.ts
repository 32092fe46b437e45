import { describe, expect, it } from 'vitest';
import { outcomeOf } from './state.js';
import { explorerLinks, statusJson } from './status-json.js';
import { ev, started, tx } from './test-support/evidence.js';
import type { TransferProgress } from './types.js';

/**
 * `transfers[]` as Skip's `docs/swagger.yml` (`StatusTxResponse.transfers`, `TransferStatus`) gives it, for
 * the statuses whose source tx started no transfer: `@skip-go/client` decides a tx is final from
 * `transfers[0].state` (`subscribeToRouteStatus`), so every status carries one entry saying what the
 * top level says, a failed source tx with its `TransactionExecutionErrorDetails`.
 */

const status = (progress: TransferProgress) => statusJson(progress, outcomeOf(progress), explorerLinks([]));

/** The one entry of a status whose source tx started no transfer: the top level's state, release and error. */
const alone = (answer: ReturnType<typeof status>) => ({
  state: answer.state,
  transfer_sequence: [],
  next_blocking_transfer: null,
  transfer_asset_release: answer.transfer_asset_release,
  error: answer.error,
  waiting_for: null,
});

const deposit = () =>
  started('l1-1', [
    ev('initiate_token_deposit', {
      bridge_id: '7',
      l1_sequence: '3',
      l1_denom: 'uinit',
      l2_denom: 'l2/ab',
      amount: '5',
    }),
  ]);

describe('transfers[] of a status whose source tx started no transfer', () => {
  it('a source tx not seen yet: one STATE_SUBMITTED entry, nothing blocking', () => {
    const answer = status({ hops: [], watch: {} });
    expect(answer.state).toBe('STATE_SUBMITTED');
    expect(answer.transfers).toEqual([alone(answer)]);
  });

  it('a failed source tx: one STATE_COMPLETED_ERROR entry with the execution error code and log', () => {
    const answer = status({
      source: { ...tx('l1-1'), code: 5, log: 'insufficient funds', denom: 'uinit', amount: '9' },
      hops: [],
      watch: {},
    });
    expect(answer).toMatchObject({ state: 'STATE_COMPLETED_ERROR', status: 'STATE_COMPLETED' });
    expect(answer.transfers).toEqual([alone(answer)]);
    expect(answer.transfers[0]!.error).toEqual({
      type: 'STATUS_ERROR_TRANSACTION_EXECUTION',
      message: 'insufficient funds',
      details: { code: 5, message: 'insufficient funds' },
    });
    expect(answer.transfers[0]!.transfer_asset_release).toEqual({
      chain_id: 'l1-1',
      denom: 'uinit',
      amount: '9',
      released: true,
    });
  });

  it('a successful tx that moved nothing across chains: one STATE_COMPLETED_SUCCESS entry', () => {
    const answer = status({ source: { ...tx('l1-1'), code: 0 }, hops: [], watch: {} });
    expect(answer).toMatchObject({
      state: 'STATE_COMPLETED_SUCCESS',
      status: 'STATE_COMPLETED',
      error: null,
    });
    expect(answer.transfers).toEqual([alone(answer)]);
  });

  it('a source tx never seen, abandoned: one STATE_ABANDONED entry with the reason', () => {
    const answer = status({ hops: [], watch: {}, abandoned: { reason: 'source tx not seen on l1-1' } });
    expect(answer.transfers).toEqual([alone(answer)]);
    expect(answer.transfers[0]).toMatchObject({
      state: 'STATE_ABANDONED',
      error: { type: 'STATUS_ERROR_UNKNOWN', message: 'source tx not seen on l1-1' },
    });
  });
});

describe('transfers[] of an abandoned transfer', () => {
  it('each entry is STATE_ABANDONED and says why, as the top level does', () => {
    const p = deposit();
    p.abandoned = { reason: 'no progress for 600 s' };
    const answer = status(p);
    expect(answer.state).toBe('STATE_ABANDONED');
    expect(answer.transfers).toHaveLength(1);
    expect(answer.transfers[0]).toMatchObject({
      state: 'STATE_ABANDONED',
      next_blocking_transfer: null,
      error: { type: 'STATUS_ERROR_UNKNOWN', message: 'no progress for 600 s' },
    });
    expect(answer.transfers[0]!.transfer_sequence).toEqual(answer.transfer_sequence);
  });

  it('a transfer that started keeps its own entries, however many', () => {
    const answer = status(deposit());
    expect(answer.state).toBe('STATE_PENDING');
    expect(answer.transfers).toHaveLength(1);
    expect(answer.transfers[0]).toMatchObject({
      state: 'STATE_PENDING',
      next_blocking_transfer: { transfer_sequence_index: 0 },
      error: null,
    });
  });
});
