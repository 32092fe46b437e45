import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import {
  MsgAcknowledgement,
  MsgAcknowledgementResponse,
  MsgRecvPacket,
  MsgRecvPacketResponse,
  MsgTimeout,
  MsgTimeoutResponse,
} from '@initia/initia.proto/ibc/core/channel/v1/tx.js';
import {
  heightString,
  type IbcHeight,
  revisionNumber,
  heightTimedOut as timedOutAtHeight,
  timestampTimedOut as timedOutAtTime,
} from 'weft/protocol/ibc-timeout.js';
import { appendMsgIndex } from '../../events.js';
import {
  type AbciEvent,
  type AnyMsg,
  type BlockContext,
  type MsgModule,
  type TxContext,
  TxError,
} from '../../types.js';
import { toErrorEvents } from '../channel.js';
import {
  acknowledgePacketEvents,
  recvPacketEvents,
  sendPacketEvents,
  timeoutPacketEvents,
  writeAckEvents,
} from './events.js';
import {
  ackCommitment,
  type ChannelEnd,
  getChannel,
  ibcKeys,
  packetCommitment,
  readSequence,
} from './store.js';

/**
 * ibc-go v8's channel keeper and its msg server for packets: `MsgRecvPacket`, `MsgAcknowledgement` and
 * `MsgTimeout` routed to the application bound to the packet's port. Proofs are carried but not verified.
 */

export const MSG_RECV_PACKET = '/ibc.core.channel.v1.MsgRecvPacket';
export const MSG_ACKNOWLEDGEMENT = '/ibc.core.channel.v1.MsgAcknowledgement';
export const MSG_TIMEOUT = '/ibc.core.channel.v1.MsgTimeout';

/** An acknowledgement as the application wrote it; `success` tells whether its writes stay. */
export interface RecvResult {
  ack: Uint8Array;
  success: boolean;
}

/** An IBC application (or middleware) bound to a port. Events go to `events`, without `msg_index`. */
export interface IbcApp {
  port: string;
  /** Returns undefined for an asynchronous acknowledgement (written later through `writeAcknowledgement`). */
  onRecvPacket(ctx: TxContext, packet: Packet, events: AbciEvent[]): Promise<RecvResult | undefined>;
  onAcknowledgementPacket(
    ctx: TxContext,
    packet: Packet,
    ack: Uint8Array,
    events: AbciEvent[],
  ): Promise<void>;
  onTimeoutPacket(ctx: TxContext, packet: Packet, events: AbciEvent[]): Promise<void>;
}

export interface SendPacketInput {
  sourcePort: string;
  sourceChannel: string;
  timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint };
  timeoutTimestamp: bigint;
  data: Uint8Array;
}

export interface IbcCore {
  module: MsgModule;
  /** Binds an application to its port. */
  bind(app: IbcApp): void;
  /** `SendPacket`: assigns the next sequence, stores the commitment, emits `send_packet`. */
  sendPacket(ctx: BlockContext, input: SendPacketInput, events: AbciEvent[]): Packet;
  /** `WriteAcknowledgement` of a packet received earlier (asynchronous acks). */
  writeAcknowledgement(ctx: BlockContext, packet: Packet, ack: Uint8Array, events: AbciEvent[]): void;
}

// ResponseResultType.
const RESULT_NOOP = 1;
const RESULT_SUCCESS = 2;

const isZeroHeight = (h: Packet['timeoutHeight']) =>
  (h?.revisionNumber ?? 0n) === 0n && (h?.revisionHeight ?? 0n) === 0n;

/** Whether `height` (of the counterparty or of this chain) has reached the packet's timeout height. */
export const heightTimedOut = (packet: Packet, height: IbcHeight) =>
  timedOutAtHeight(packet.timeoutHeight, height);

/** Whether a time (ms) has reached the packet's timeout timestamp (ns). */
export const timestampTimedOut = (packet: Packet, timeMs: number) =>
  timedOutAtTime(packet.timeoutTimestamp, timeMs);

function validatePacket(packet: Packet | undefined, proof: Uint8Array): Packet {
  if (!packet) throw new TxError('channel', 13, 'packet cannot be nil: invalid packet');
  if (proof.length === 0) throw new TxError('commitment', 2, 'cannot submit an empty proof: invalid proof');
  if (packet.sequence === 0n) throw new TxError('channel', 13, 'packet sequence cannot be 0: invalid packet');
  if (packet.data.length === 0)
    throw new TxError('channel', 13, 'packet data bytes cannot be empty: invalid packet');
  if (isZeroHeight(packet.timeoutHeight) && packet.timeoutTimestamp === 0n) {
    throw new TxError(
      'channel',
      13,
      'packet timeout height and packet timeout timestamp cannot both be 0: invalid packet',
    );
  }
  return packet;
}

export function createIbcCore(options: { fallback?: MsgModule } = {}): IbcCore {
  const apps = new Map<string, IbcApp>();
  const appOf = (port: string) => {
    const app = apps.get(port);
    if (!app) throw new TxError('port', 3, `no route for ${port}: route not found`);
    return app;
  };
  const channelOf = (ctx: BlockContext, port: string, channelId: string): ChannelEnd => {
    const channel = getChannel(ctx.store, port, channelId);
    if (!channel)
      throw new TxError('channel', 3, `port ID (${port}) channel ID (${channelId}): channel not found`);
    if (channel.state !== 'STATE_OPEN') {
      throw new TxError(
        'channel',
        9,
        `channel state is not OPEN (got ${channel.state}): invalid channel state`,
      );
    }
    return channel;
  };
  const respond = (
    typeUrl: string,
    encode: (r: { result: number }) => Uint8Array,
    result: number,
  ): AnyMsg => ({
    typeUrl,
    value: encode({ result }),
  });

  const writeAcknowledgement: IbcCore['writeAcknowledgement'] = (ctx, packet, ack, events) => {
    const channel = channelOf(ctx, packet.destinationPort, packet.destinationChannel);
    const key = ibcKeys.ack(packet.destinationPort, packet.destinationChannel, packet.sequence);
    if (ctx.store.get(key) !== undefined) {
      throw new TxError(
        'channel',
        25,
        `acknowledgement for packet already exists: acknowledgement for packet already exists`,
      );
    }
    ctx.store.set(key, ackCommitment(ack));
    events.push(...writeAckEvents(packet, channel, ack));
  };

  async function recvPacket(ctx: TxContext, msg: AnyMsg): Promise<AnyMsg> {
    const m = MsgRecvPacket.decode(msg.value);
    const packet = validatePacket(m.packet, m.proofCommitment);
    const response = (result: number) =>
      respond(
        '/ibc.core.channel.v1.MsgRecvPacketResponse',
        (r) => MsgRecvPacketResponse.encode(r).finish(),
        result,
      );
    const channel = channelOf(ctx, packet.destinationPort, packet.destinationChannel);
    if (
      channel.counterparty.portId !== packet.sourcePort ||
      channel.counterparty.channelId !== packet.sourceChannel
    ) {
      throw new TxError(
        'channel',
        16,
        `packet source port doesn't match the counterparty's port (${packet.sourcePort} ≠ ${channel.counterparty.portId}): invalid packet`,
      );
    }
    const self = { revisionNumber: revisionNumber(ctx.chain.chainId), revisionHeight: BigInt(ctx.height) };
    if (heightTimedOut(packet, self)) {
      throw new TxError(
        'channel',
        40,
        `receive packet verification failed: packet timeout elapsed: current height: ${heightString(self)}, timeout height ${heightString(packet.timeoutHeight)}: timeout elapsed`,
      );
    }
    if (timestampTimedOut(packet, ctx.timeMs)) {
      throw new TxError(
        'channel',
        40,
        `receive packet verification failed: packet timeout elapsed: current timestamp: ${BigInt(ctx.timeMs) * 1_000_000n}, timeout timestamp ${packet.timeoutTimestamp}: timeout elapsed`,
      );
    }
    const receipt = ibcKeys.receipt(packet.destinationPort, packet.destinationChannel, packet.sequence);
    if (ctx.store.get(receipt) !== undefined) return response(RESULT_NOOP);
    ctx.store.set(receipt, '1');
    const events: AbciEvent[] = [...recvPacketEvents(packet, channel)];
    const appEvents: AbciEvent[] = [];
    ctx.store.checkpoint();
    let result: RecvResult | undefined;
    try {
      result = await appOf(packet.destinationPort).onRecvPacket(ctx, packet, appEvents);
    } catch (err) {
      ctx.store.revert();
      throw err;
    }
    // Writes of a failed receive are dropped and its events renamed, as the msg server's cache context does.
    if (result && !result.success) {
      ctx.store.revert();
      events.push(...toErrorEvents(appEvents));
    } else {
      ctx.store.commit();
      events.push(...appEvents);
    }
    if (result) writeAcknowledgement(ctx, packet, result.ack, events);
    ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
    return response(RESULT_SUCCESS);
  }

  /** The commitment check both acknowledgements and timeouts start with; false = already handled. */
  const checkCommitment = (ctx: TxContext, packet: Packet) => {
    const key = ibcKeys.commitment(packet.sourcePort, packet.sourceChannel, packet.sequence);
    const stored = ctx.store.get(key);
    if (stored === undefined) return false;
    if (stored !== packetCommitment(packet)) {
      throw new TxError(
        'channel',
        21,
        `commitment bytes are not equal: got (${packetCommitment(packet)}), expected (${stored}): invalid packet`,
      );
    }
    ctx.store.set(key, undefined);
    return true;
  };

  async function acknowledgement(ctx: TxContext, msg: AnyMsg): Promise<AnyMsg> {
    const m = MsgAcknowledgement.decode(msg.value);
    const packet = validatePacket(m.packet, m.proofAcked);
    if (m.acknowledgement.length === 0) {
      throw new TxError('channel', 23, 'ack bytes cannot be empty: invalid acknowledgement');
    }
    const response = (result: number) =>
      respond(
        '/ibc.core.channel.v1.MsgAcknowledgementResponse',
        (r) => MsgAcknowledgementResponse.encode(r).finish(),
        result,
      );
    const channel = channelOf(ctx, packet.sourcePort, packet.sourceChannel);
    if (!checkCommitment(ctx, packet)) return response(RESULT_NOOP);
    const events = acknowledgePacketEvents(packet, channel);
    await appOf(packet.sourcePort).onAcknowledgementPacket(ctx, packet, m.acknowledgement, events);
    ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
    return response(RESULT_SUCCESS);
  }

  async function timeout(ctx: TxContext, msg: AnyMsg): Promise<AnyMsg> {
    const m = MsgTimeout.decode(msg.value);
    const packet = validatePacket(m.packet, m.proofUnreceived);
    const response = (result: number) =>
      respond(
        '/ibc.core.channel.v1.MsgTimeoutResponse',
        (r) => MsgTimeoutResponse.encode(r).finish(),
        result,
      );
    const channel = channelOf(ctx, packet.sourcePort, packet.sourceChannel);
    const proofHeight = m.proofHeight ?? { revisionNumber: 0n, revisionHeight: 0n };
    // Without a light client the counterparty's time is not known here: a timestamp timeout is taken on the
    // relayer's word, as its (unverified) non-receipt proof would prove it.
    if (!heightTimedOut(packet, proofHeight) && packet.timeoutTimestamp === 0n) {
      throw new TxError(
        'channel',
        41,
        `packet timeout has not been reached for height or timestamp: proof height (${heightString(proofHeight)}), timeout height (${heightString(packet.timeoutHeight)}): packet timeout not reached`,
      );
    }
    if (!checkCommitment(ctx, packet)) return response(RESULT_NOOP);
    const events = timeoutPacketEvents(packet, channel);
    await appOf(packet.sourcePort).onTimeoutPacket(ctx, packet, events);
    ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
    return response(RESULT_SUCCESS);
  }

  const module: MsgModule = {
    name: 'ibc',
    typeUrls: [MSG_RECV_PACKET, MSG_ACKNOWLEDGEMENT, MSG_TIMEOUT],
    signers(msg) {
      switch (msg.typeUrl) {
        case MSG_RECV_PACKET:
          return [MsgRecvPacket.decode(msg.value).signer];
        case MSG_ACKNOWLEDGEMENT:
          return [MsgAcknowledgement.decode(msg.value).signer];
        default:
          return [MsgTimeout.decode(msg.value).signer];
      }
    },
    execute(ctx, msg) {
      switch (msg.typeUrl) {
        case MSG_RECV_PACKET: {
          const packet = MsgRecvPacket.decode(msg.value).packet;
          const port = packet?.destinationPort ?? '';
          // A chain's own receive-only module takes the packets of ports, or channels, core does not have
          // (the ICS-721 traffic of a rollup from an L1 outside the network).
          const known = apps.has(port) && getChannel(ctx.store, port, packet?.destinationChannel ?? '');
          if (!known && options.fallback) return options.fallback.execute(ctx, msg);
          return recvPacket(ctx, msg);
        }
        case MSG_ACKNOWLEDGEMENT:
          return acknowledgement(ctx, msg);
        default:
          return timeout(ctx, msg);
      }
    },
  };

  return {
    module,
    bind(app) {
      apps.set(app.port, app);
    },
    sendPacket(ctx, input, events) {
      const channel = channelOf(ctx, input.sourcePort, input.sourceChannel);
      const seqKey = ibcKeys.nextSequenceSend(input.sourcePort, input.sourceChannel);
      const sequence = readSequence(ctx.store, seqKey);
      const packet: Packet = {
        sequence,
        sourcePort: input.sourcePort,
        sourceChannel: input.sourceChannel,
        destinationPort: channel.counterparty.portId,
        destinationChannel: channel.counterparty.channelId,
        data: input.data,
        timeoutHeight: input.timeoutHeight,
        timeoutTimestamp: input.timeoutTimestamp,
      };
      ctx.store.set(seqKey, String(sequence + 1n));
      ctx.store.set(
        ibcKeys.commitment(packet.sourcePort, packet.sourceChannel, sequence),
        packetCommitment(packet),
      );
      events.push(...sendPacketEvents(packet, channel));
      return packet;
    },
    writeAcknowledgement,
  };
}
