import { randomUUID } from 'node:crypto';
import {
  type RouteDetails,
  subscribeToRouteStatus,
  type TxStatusResponse,
  waitForTransactionWithCancel,
} from '@skip-go/client';
import { expect } from 'vitest';

/**
 * `@skip-go/client`'s polling helpers with a bound: each test waits on them at most `ms`, and cancels them
 * then, so a helper that never ends on a status fails its test (naming the last status it saw) instead of
 * polling on after it.
 */

/** An error the SDK threw for an error answer: it carries the router's gRPC `code` and its message. */
export const refused = (code: number, message: RegExp) =>
  expect.objectContaining({ code, message: expect.stringMatching(message) });

/**
 * What `transfers[0]` of a final status must say, camelCased by the SDK: the top level's state, release
 * and error, nothing blocking.
 */
export function expectFinalEntry(status: TxStatusResponse | undefined, state: string): void {
  expect(status?.state).toBe(state);
  expect(status?.status).toBe('STATE_COMPLETED');
  expect(status?.transfers?.[0]).toMatchObject({
    state,
    nextBlockingTransfer: null,
    transferAssetRelease: status?.transferAssetRelease,
    error: status?.error,
  });
}

/** How a helper ended: its value, or what it threw (a timeout is a cancellation). */
export type Ending<T> = { value: T; error?: undefined } | { value?: undefined; error: Error };

const settle = <T>(promise: Promise<T>): Promise<Ending<T>> =>
  promise.then(
    (value) => ({ value }),
    (error: Error) => ({ error }),
  );

/**
 * `waitForTransaction` (tracking the tx first unless `doNotTrack`): it returns on `STATE_COMPLETED_SUCCESS`
 * and throws on `STATE_COMPLETED_ERROR` and `STATE_ABANDONED` or an error answer; cancelled after `ms`.
 */
export async function waitForTransactionWithin(
  input: { chainId: string; txHash: string; doNotTrack?: boolean },
  ms = 20_000,
): Promise<Ending<TxStatusResponse> & { statuses: TxStatusResponse[] }> {
  const statuses: TxStatusResponse[] = [];
  const { promise, cancel } = waitForTransactionWithCancel({
    ...input,
    onStatusUpdated: (status) => statuses.push(status),
  });
  const timer = setTimeout(cancel, ms);
  try {
    return { ...(await settle(promise)), statuses };
  } finally {
    clearTimeout(timer);
  }
}

/** A route's final statuses in the SDK (`isFinalRouteStatus`). */
const FINAL = new Set(['completed', 'failed', 'incomplete']);

/**
 * `subscribeToRouteStatus` on one broadcast tx, as a wallet resumes a route: it polls the status each
 * second until `transfers[0].state` is final (`isFinalState`), then reports the route `completed` or
 * `failed`. Answers that route, or throws after `ms` with the last status seen; unsubscribes either way.
 */
export async function subscribeUntilFinal(
  chainId: string,
  txHash: string,
  ms = 20_000,
): Promise<RouteDetails> {
  const routeDetails: RouteDetails = {
    id: randomUUID(),
    timestamp: Date.now(),
    status: 'pending',
    route: {},
    txsRequired: 1,
    txsSigned: 1,
    transactionDetails: [{ chainId, txHash }],
    transferEvents: [],
    userAddresses: [],
  };
  let unsubscribe = () => {};
  try {
    return await new Promise<RouteDetails>((resolve, reject) => {
      const timer = setTimeout(() => {
        // The SDK keeps each poll's answer on the tx it was given.
        const seen = routeDetails.transactionDetails[0]?.statusResponse;
        reject(
          new Error(
            `subscribeToRouteStatus did not end within ${ms} ms; the last status: ${JSON.stringify(seen)}`,
          ),
        );
      }, ms);
      unsubscribe = subscribeToRouteStatus({
        routeDetails,
        onRouteStatusUpdated: (route) => {
          if (!FINAL.has(route.status)) return;
          clearTimeout(timer);
          resolve(route);
        },
      });
    });
  } finally {
    unsubscribe();
  }
}
