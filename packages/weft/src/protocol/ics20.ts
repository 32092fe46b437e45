import { sha256 } from '@noble/hashes/sha2.js';

/**
 * ICS-20 denominations as ibc-go v8's transfer module names them (`modules/apps/transfer/types/trace.go`,
 * `keys.go`): traces, `ibc/<hash>` and escrow addresses. ICS-721 names a received class the same way
 * (`ics721.ts`).
 */

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

/** Uppercase hex SHA-256 of a full path (`DenomTrace.Hash().String()`; ICS-721's class trace hash). */
export const pathHash = (fullPath: string) =>
  Buffer.from(sha256(new TextEncoder().encode(fullPath)))
    .toString('hex')
    .toUpperCase();

/** `DenomTrace.Hash().String()`. */
export const traceHash = (trace: DenomTrace) => pathHash(fullDenomPath(trace));

/** `ibc/<hash>` of a full path, whatever its hops: the denom (ICS-20) or class id (ICS-721) it arrives as. */
export const ibcHash = (fullPath: string) => `ibc/${pathHash(fullPath)}`;

/** `IBCDenom`: `ibc/<hash>` for a trace with a path, the base denom otherwise. */
export const ibcDenom = (trace: DenomTrace) =>
  trace.path === '' ? trace.baseDenom : ibcHash(fullDenomPath(trace));

/** The local denom of a full path (`transfer/channel-0/umin` → `ibc/…`). */
export const localDenom = (fullPath: string) => ibcDenom(parseDenomTrace(fullPath));

export const denomPrefix = (port: string, channel: string) => `${port}/${channel}/`;

/** `SenderChainIsSource`: the denom did not arrive through this port and channel. */
export const senderChainIsSource = (port: string, channel: string, fullPath: string) =>
  !fullPath.startsWith(denomPrefix(port, channel));

/** The ends of a packet's channel, as ibc-go's `Packet` names them. */
export interface PacketRoute {
  sourcePort: string;
  sourceChannel: string;
  destinationPort: string;
  destinationChannel: string;
}

/**
 * The denom a packet's receiver is credited (`OnRecvPacket`) for the packet data's `denom` (a full trace):
 * a denom coming home over the channel it left by is unwound (and is a voucher again only if it still
 * has hops); any other arrives as the voucher of the trace prefixed with the receiving end.
 */
export function receivedDenom(route: PacketRoute, fullPath: string): string {
  if (!senderChainIsSource(route.sourcePort, route.sourceChannel, fullPath))
    return localDenom(fullPath.slice(denomPrefix(route.sourcePort, route.sourceChannel).length));
  return localDenom(`${denomPrefix(route.destinationPort, route.destinationChannel)}${fullPath}`);
}

/** `GetEscrowAddress`: the first 20 bytes of sha256("ics20-1\0" + port + "/" + channel). */
export function escrowAddressBytes(port: string, channel: string): Uint8Array {
  const contents = new TextEncoder().encode(`${port}/${channel}`);
  const preimage = new Uint8Array(TRANSFER_VERSION.length + 1 + contents.length);
  preimage.set(new TextEncoder().encode(TRANSFER_VERSION), 0);
  preimage.set(contents, TRANSFER_VERSION.length + 1);
  return sha256(preimage).subarray(0, 20);
}
