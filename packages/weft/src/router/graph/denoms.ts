import { ibcHash, parseDenomTrace } from '../../protocol/ics20.js';

/** An ICS-20 denom trace: the hops (newest first, as in the path) and the base denom. */
export interface IbcTrace {
  hops: Array<{ port: string; channel: string }>;
  base: string;
}

/** `transfer/channel-1/transfer/channel-0/uinit` → two hops and `uinit`, as ibc-go splits a path (`ics20.ts`). */
export function parseIbcPath(path: string): IbcTrace {
  const trace = parseDenomTrace(path);
  const parts = trace.path === '' ? [] : trace.path.split('/');
  const hops: IbcTrace['hops'] = [];
  for (let i = 0; i < parts.length; i += 2) hops.push({ port: parts[i]!, channel: parts[i + 1]! });
  return { hops, base: trace.baseDenom };
}

export function ibcPath(trace: IbcTrace): string {
  return [...trace.hops.map((h) => `${h.port}/${h.channel}`), trace.base].join('/');
}

/** The denom a chain holds for a trace: the base itself, or its `ibc/<hash>`. */
export function ibcDenomOf(trace: IbcTrace): string {
  return trace.hops.length === 0 ? trace.base : ibcHash(ibcPath(trace));
}

/** The trace path among an asset's `ibc` steps that hashes to the voucher `denom`, if one does. */
export function voucherPathIn(
  traces: Array<{ kind: string; path?: string }>,
  denom: string,
): string | undefined {
  return traces.find(
    (t) => t.kind === 'ibc' && t.path !== undefined && ibcDenomOf(parseIbcPath(t.path)) === denom,
  )?.path;
}
