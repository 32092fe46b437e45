/**
 * ibc-go's packet timeout rules, as a receiving chain applies them and as a reader of its blocks judges
 * them: one place for the devnet's channel keeper and relayer and for the router's tracker.
 */

export interface IbcHeight {
  revisionNumber: bigint;
  revisionHeight: bigint;
}

/** `clienttypes.ParseChainID`: the revision number a chain id like `minimove-1` carries (else 0). */
export function revisionNumber(chainId: string): bigint {
  return /^.*[^\n-]-[1-9][0-9]*$/.test(chainId) ? BigInt(chainId.slice(chainId.lastIndexOf('-') + 1)) : 0n;
}

/** `clienttypes.Height.String()`: `<revision>-<height>`; an absent height is `0-0`. */
export const heightString = (h: IbcHeight | undefined) =>
  `${h?.revisionNumber ?? 0n}-${h?.revisionHeight ?? 0n}`;

/** `<revision>-<height>` as ibc-go's packet events write it; `0-0` (no height timeout) for anything else. */
export function parseHeight(text: string): IbcHeight {
  const match = /^(\d+)-(\d+)$/.exec(text);
  return match
    ? { revisionNumber: BigInt(match[1]!), revisionHeight: BigInt(match[2]!) }
    : { revisionNumber: 0n, revisionHeight: 0n };
}

const isZero = (h: IbcHeight | undefined) =>
  (h?.revisionNumber ?? 0n) === 0n && (h?.revisionHeight ?? 0n) === 0n;

/**
 * Whether `height` has reached the timeout height: a later revision, or the same one at or above it.
 * A zero (or absent) timeout height is no timeout.
 */
export function heightTimedOut(timeout: IbcHeight | undefined, height: IbcHeight): boolean {
  if (!timeout || isZero(timeout)) return false;
  return (
    height.revisionNumber > timeout.revisionNumber ||
    (height.revisionNumber === timeout.revisionNumber && height.revisionHeight >= timeout.revisionHeight)
  );
}

/** Whether a block time (ms) has reached the timeout timestamp (ns); 0 is no timeout. */
export const timestampTimedOut = (timeoutNs: bigint, timeMs: number) =>
  timeoutNs !== 0n && BigInt(timeMs) * 1_000_000n >= timeoutNs;
