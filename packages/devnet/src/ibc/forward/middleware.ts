import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toBech32 } from 'weft/chain/address.js';
import { denomPrefix, localDenom, senderChainIsSource } from 'weft/protocol/ics20.js';
import {
  decodeTransferData,
  encodeTransferData,
  type FungibleTokenPacketData,
  parseAck,
} from 'weft/protocol/ics20-packet.js';
import { type AbciEvent, type BlockContext, TxError } from '../../types.js';
import type { IbcApp, IbcCore, RecvResult } from '../core/module.js';
import type { TransferKeeper } from '../transfer/keeper.js';

/**
 * The packet-forward middleware (ibc-apps PFM v8) over the transfer app. A receive whose memo is
 * `{"forward":{receiver,port,channel,timeout,retries,next}}` is credited to an intermediate address and sent
 * on; the original packet's acknowledgement is written only when the forwarded one is acknowledged (async),
 * and a failed hop returns the funds the way the receive brought them before the error goes back.
 */

export interface ForwardMetadata {
  receiver: string;
  port: string;
  channel: string;
  /** Go duration (`"10m"`) or nanoseconds. */
  timeout?: string | number;
  retries?: number;
  next?: unknown;
}

interface InFlight {
  packet: {
    sequence: string;
    sourcePort: string;
    sourceChannel: string;
    destinationPort: string;
    destinationChannel: string;
    data: string;
    timeoutHeight: [string, string];
    timeoutTimestamp: string;
  };
  retries: number;
  timeoutNs: string;
  forward: ForwardMetadata;
  /** The local denom the receive credited and how: from the refund channel's escrow or minted. */
  denom: string;
  released: boolean;
}

const DEFAULT_TIMEOUT_NS = 5n * 60n * 1_000_000_000n;
const DEFAULT_RETRIES = 3;
const MODULE_NAME = 'packetfowardmiddleware'; // sic: the name PFM hashes intermediate addresses with

const inFlightKey = (port: string, channel: string, sequence: bigint) =>
  `pfm/inflight/${port}/${channel}/${sequence}`;

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** A Go `time.Duration` as JSON carries it: a number of nanoseconds or a string such as `1h30m`. */
export function parseDuration(value: string | number | undefined): bigint {
  if (value === undefined) return DEFAULT_TIMEOUT_NS;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  if (/^\d+$/.test(value)) return BigInt(value);
  let total = 0n;
  let consumed = 0;
  for (const match of value.matchAll(/(\d+)(ns|us|µs|ms|s|m|h)/g)) {
    if (match.index !== consumed) break;
    total += BigInt(match[1]!) * UNITS[match[2]!]!;
    consumed += match[0].length;
  }
  if (consumed !== value.length || value === '') throw new Error(`time: invalid duration "${value}"`);
  return total;
}

/** `getReceiver`: the intermediate account, `address.Hash(moduleName, channel/sender)[:20]`. */
export function intermediateReceiver(prefix: string, channel: string, originalSender: string): string {
  const typeHash = sha256(new TextEncoder().encode(MODULE_NAME));
  const key = new TextEncoder().encode(`${channel}/${originalSender}`);
  const preimage = new Uint8Array(typeHash.length + key.length);
  preimage.set(typeHash, 0);
  preimage.set(key, typeHash.length);
  return toBech32(prefix, sha256(preimage).subarray(0, 20));
}

/** `newErrorAcknowledgement` of PFM: the error text travels whole. */
const pfmErrorAck = (message: string) =>
  new TextEncoder().encode(JSON.stringify({ error: `packet-forward-middleware error: ${message}` }));

function parseForward(memo: string): ForwardMetadata | undefined {
  if (memo.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(memo);
  } catch {
    return undefined;
  }
  const forward = (parsed as { forward?: unknown } | null)?.forward;
  if (forward === undefined) return undefined;
  const f = forward as Partial<ForwardMetadata>;
  if (typeof f !== 'object' || f === null) throw new Error('forward metadata is not an object');
  if (!f.receiver) throw new Error('failed to validate forward metadata: receiver cannot be empty');
  if (!f.port) throw new Error('failed to validate forward metadata: port cannot be empty');
  if (!f.channel) throw new Error('failed to validate forward metadata: channel cannot be empty');
  return f as ForwardMetadata;
}

const serialize = (p: Packet): InFlight['packet'] => ({
  sequence: p.sequence.toString(),
  sourcePort: p.sourcePort,
  sourceChannel: p.sourceChannel,
  destinationPort: p.destinationPort,
  destinationChannel: p.destinationChannel,
  data: Buffer.from(p.data).toString('base64'),
  timeoutHeight: [
    String(p.timeoutHeight?.revisionNumber ?? 0n),
    String(p.timeoutHeight?.revisionHeight ?? 0n),
  ],
  timeoutTimestamp: p.timeoutTimestamp.toString(),
});

const deserialize = (p: InFlight['packet']): Packet => ({
  sequence: BigInt(p.sequence),
  sourcePort: p.sourcePort,
  sourceChannel: p.sourceChannel,
  destinationPort: p.destinationPort,
  destinationChannel: p.destinationChannel,
  data: new Uint8Array(Buffer.from(p.data, 'base64')),
  timeoutHeight: { revisionNumber: BigInt(p.timeoutHeight[0]), revisionHeight: BigInt(p.timeoutHeight[1]) },
  timeoutTimestamp: BigInt(p.timeoutTimestamp),
});

export function createForwardMiddleware(options: {
  core: IbcCore;
  transfer: TransferKeeper;
  prefix: string;
}): IbcApp {
  const { core, transfer, prefix } = options;
  const inner = transfer.app;

  const send = async (
    ctx: BlockContext,
    flight: Omit<InFlight, 'retries'> & { retries: number },
    sender: string,
    events: AbciEvent[],
  ) => {
    const { forward } = flight;
    const memo =
      forward.next === undefined
        ? ''
        : typeof forward.next === 'string'
          ? forward.next
          : JSON.stringify(forward.next);
    const packet = await transfer.transfer(
      ctx,
      {
        sourcePort: forward.port,
        sourceChannel: forward.channel,
        token: { denom: flight.denom, amount: decodeTransferData(deserialize(flight.packet).data).amount },
        sender,
        receiver: forward.receiver,
        timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
        timeoutTimestamp: BigInt(ctx.timeMs) * 1_000_000n + BigInt(flight.timeoutNs),
        memo,
      },
      events,
    );
    ctx.store.set(
      inFlightKey(packet.sourcePort, packet.sourceChannel, packet.sequence),
      JSON.stringify(flight),
    );
  };

  /** Undoes a failed hop: the funds go back where the receive took them from, then the original is acked. */
  const fail = async (
    ctx: BlockContext,
    forwarded: Packet,
    flight: InFlight,
    ack: Uint8Array,
    events: AbciEvent[],
  ) => {
    const original = deserialize(flight.packet);
    const data = decodeTransferData(forwarded.data);
    const coin = { denom: flight.denom, amount: data.amount };
    const escrowed = senderChainIsSource(forwarded.sourcePort, forwarded.sourceChannel, data.denom);
    const hopEscrow = transfer.escrowAddress(forwarded.sourcePort, forwarded.sourceChannel);
    const refundEscrow = transfer.escrowAddress(original.destinationPort, original.destinationChannel);
    if (escrowed) {
      transfer.funds.addEscrow(ctx, coin.denom, -BigInt(coin.amount));
      if (flight.released) {
        await transfer.funds.send(ctx, hopEscrow, refundEscrow, coin, events);
        transfer.funds.addEscrow(ctx, coin.denom, BigInt(coin.amount));
      } else {
        await transfer.funds.burnFrom(ctx, hopEscrow, coin, events);
      }
    } else if (flight.released) {
      await transfer.funds.mintTo(ctx, refundEscrow, coin, events);
      transfer.funds.addEscrow(ctx, coin.denom, BigInt(coin.amount));
    }
    core.writeAcknowledgement(ctx, original, ack, events);
  };

  const takeInFlight = (ctx: BlockContext, packet: Packet): InFlight | undefined => {
    const key = inFlightKey(packet.sourcePort, packet.sourceChannel, packet.sequence);
    const raw = ctx.store.get(key);
    if (raw === undefined) return undefined;
    ctx.store.set(key, undefined);
    return JSON.parse(raw) as InFlight;
  };

  return {
    port: transfer.port,
    async onRecvPacket(ctx, packet, events): Promise<RecvResult | undefined> {
      let data: FungibleTokenPacketData;
      let forward: ForwardMetadata | undefined;
      try {
        data = decodeTransferData(packet.data);
        forward = parseForward(data.memo);
      } catch (err) {
        if (err instanceof SyntaxError) return inner.onRecvPacket(ctx, packet, events);
        return { ack: pfmErrorAck((err as Error).message), success: false };
      }
      if (!forward) return inner.onRecvPacket(ctx, packet, events);
      let timeoutNs: bigint;
      try {
        timeoutNs = parseDuration(forward.timeout);
      } catch (err) {
        return { ack: pfmErrorAck((err as Error).message), success: false };
      }
      const receiver = intermediateReceiver(prefix, packet.destinationChannel, data.sender);
      const credited = { ...packet, data: encodeTransferData({ ...data, receiver, memo: '' }) };
      const received = await inner.onRecvPacket(ctx, credited, events);
      if (!received?.success) return received;
      const released = !senderChainIsSource(packet.sourcePort, packet.sourceChannel, data.denom);
      const denom = released
        ? localDenom(data.denom.slice(denomPrefix(packet.sourcePort, packet.sourceChannel).length))
        : localDenom(`${denomPrefix(packet.destinationPort, packet.destinationChannel)}${data.denom}`);
      try {
        await send(
          ctx,
          {
            packet: serialize(packet),
            retries: forward.retries ?? DEFAULT_RETRIES,
            timeoutNs: timeoutNs.toString(),
            forward,
            denom,
            released,
          },
          receiver,
          events,
        );
      } catch (err) {
        if (!(err instanceof TxError)) throw err;
        return { ack: pfmErrorAck(`failed to forward transfer packet: ${err.message}`), success: false };
      }
      return undefined;
    },
    async onAcknowledgementPacket(ctx, packet, ack, events) {
      const flight = takeInFlight(ctx, packet);
      if (!flight) return inner.onAcknowledgementPacket(ctx, packet, ack, events);
      if (parseAck(ack).success) core.writeAcknowledgement(ctx, deserialize(flight.packet), ack, events);
      else await fail(ctx, packet, flight, ack, events);
    },
    async onTimeoutPacket(ctx, packet, events) {
      const flight = takeInFlight(ctx, packet);
      if (!flight) return inner.onTimeoutPacket(ctx, packet, events);
      if (flight.retries > 0) {
        // A retry sends the same funds again from the intermediate account, as PFM does.
        const sender = decodeTransferData(packet.data).sender;
        await inner.onTimeoutPacket(ctx, packet, events);
        await send(ctx, { ...flight, retries: flight.retries - 1 }, sender, events);
        return;
      }
      const message = `forwarded packet timed out after ${packet.timeoutTimestamp}`;
      await fail(ctx, packet, flight, pfmErrorAck(message), events);
    },
  };
}
