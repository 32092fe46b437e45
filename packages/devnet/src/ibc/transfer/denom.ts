import { sha256 } from '@noble/hashes/sha2.js';
import type { StateReader, StateStore } from '../../state/store.js';

/** ICS-20 denominations as ibc-go v8's transfer module names them: traces, `ibc/<hash>` and escrow addresses. */

export const TRANSFER_PORT = 'transfer';
export const TRANSFER_VERSION = 'ics20-1';

export interface DenomTrace {
  /** `port/channel` pairs, outermost (this chain's) first; empty for a native denom. */
  path: string;
  baseDenom: string;
}

const CHANNEL_ID = /^channel-(0|[1-9][0-9]*)$/;

/** `ParseDenomTrace` / `ExtractPathAndBaseFromFullDenom`: pairs are taken while the second is a channel id. */
export function parseDenomTrace(fullDenom: string): DenomTrace {
  const items = fullDenom.split('/');
  if (items[0] === fullDenom) return { path: '', baseDenom: fullDenom };
  const path: string[] = [];
  let base: string[] = [];
  for (let i = 0; i < items.length; i += 2) {
    if (i < items.length - 1 && items.length > 2 && CHANNEL_ID.test(items[i + 1]!)) {
      path.push(items[i]!, items[i + 1]!);
    } else {
      base = items.slice(i);
      break;
    }
  }
  return { path: path.join('/'), baseDenom: base.join('/') };
}

export const fullDenomPath = (trace: DenomTrace) =>
  trace.path === '' ? trace.baseDenom : `${trace.path}/${trace.baseDenom}`;

/** `DenomTrace.Hash().String()`: uppercase hex SHA-256 of the full path. */
export const traceHash = (trace: DenomTrace) =>
  Buffer.from(sha256(new TextEncoder().encode(fullDenomPath(trace))))
    .toString('hex')
    .toUpperCase();

/** `IBCDenom`: `ibc/<hash>` for a trace with a path, the base denom otherwise. */
export const ibcDenom = (trace: DenomTrace) =>
  trace.path === '' ? trace.baseDenom : `ibc/${traceHash(trace)}`;

/** The local denom of a full path (`transfer/channel-0/umin` → `ibc/…`). */
export const localDenom = (fullPath: string) => ibcDenom(parseDenomTrace(fullPath));

export const denomPrefix = (port: string, channel: string) => `${port}/${channel}/`;

/** `SenderChainIsSource`: the denom did not arrive through this port and channel. */
export const senderChainIsSource = (port: string, channel: string, fullPath: string) =>
  !fullPath.startsWith(denomPrefix(port, channel));

/** `GetEscrowAddress`: the first 20 bytes of sha256("ics20-1\0" + port + "/" + channel). */
export function escrowAddressBytes(port: string, channel: string): Uint8Array {
  const contents = new TextEncoder().encode(`${port}/${channel}`);
  const preimage = new Uint8Array(TRANSFER_VERSION.length + 1 + contents.length);
  preimage.set(new TextEncoder().encode(TRANSFER_VERSION), 0);
  preimage.set(contents, TRANSFER_VERSION.length + 1);
  return sha256(preimage).subarray(0, 20);
}

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
