import { type DenomTrace, fullDenomPath, parseDenomTrace, traceHash } from 'weft/protocol/ics20.js';
import type { StateReader, StateStore } from '../../state/store.js';

/** Where the devnet's transfer module keeps the ICS-20 denom traces it has seen (weft/protocol/ics20.ts names them). */

export const transferKeys = {
  trace: (hash: string) => `transfer/trace/${hash}`,
  traces: 'transfer/trace',
  totalEscrow: (denom: string) => `transfer/escrow/${encodeURIComponent(denom)}`,
};

export function setDenomTrace(store: StateStore, trace: DenomTrace): void {
  const key = transferKeys.trace(traceHash(trace));
  if (store.get(key) === undefined) store.set(key, fullDenomPath(trace));
}

/** The trace of an `ibc/<hash>` denom (or of a bare hash), if this chain has seen it. */
export function denomTraceOf(state: StateReader, denomOrHash: string): DenomTrace | undefined {
  const hash = denomOrHash.replace(/^ibc\//, '').toUpperCase();
  const path = state.get(transferKeys.trace(hash));
  return path === undefined ? undefined : parseDenomTrace(path);
}

export function listDenomTraces(state: StateReader): DenomTrace[] {
  return state.group(transferKeys.traces).map((key) => parseDenomTrace(state.get(key)!));
}
