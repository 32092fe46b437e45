import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { MsgRecvPacketResponse } from '@initia/initia.proto/ibc/core/channel/v1/tx.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeAny } from 'weft/chain/registry.js';
import { errorAck, SUCCESS_ACK } from 'weft/protocol/ics20-packet.js';
import {
  decodePacketData,
  NFT_TRANSFER_PORT,
  nftTransferClassId,
  prefixedClassId,
} from 'weft/protocol/ics721.js';
import { appendMsgIndex, event } from '../events.js';
import type { MoveExecutor } from '../move/executor.js';
import type { Auth } from '../state/auth.js';
import { type AbciEvent, type MsgModule, type TxContext, TxError } from '../types.js';
import { CW721_CODE_ID, type WasmKeeper } from '../wasm/keeper.js';
import {
  type ChannelEnd,
  receivePacket,
  recvPacketEvents,
  toErrorEvents,
  writeAckEvents,
} from './channel.js';
import { type PacketData, receiveVoucherOnMove, receiveVoucherOnWasm } from './nft/receive.js';
import { MSG_RECV_PACKET } from './packet.js';

/**
 * `MsgRecvPacket` for ICS-721 packets: ibc-go's core receive (receipt, `recv_packet`, acknowledgement) around
 * the receiving application. On Move that is initia's nft-transfer keeper, which calls `0x1::initia_nft` as
 * `0x1` to create the `ibc/<hash>` collection and mint; on Wasm it is the ICS-721 contract, which instantiates a
 * cw721 named `<port>/<channel>/<class id>` and mints as its minter.
 */

interface CommonOptions {
  prefix: string;
  /** Channels of this chain by id; defaults to `channel-0` on `connection-0`. */
  channels?: Record<string, ChannelEnd>;
  auth?: Pick<Auth, 'ensure'>;
}

export type NftTransferOptions = CommonOptions &
  (
    | { vm: 'move'; move: MoveExecutor; port?: string }
    | {
        vm: 'wasm';
        wasm: WasmKeeper;
        /** Address of the ICS-721 contract; its port is `wasm.<address>`. */
        ics721: string;
        voucherCodeId?: bigint;
      }
  );

export interface NftTransfer {
  module: MsgModule;
  /** The port packets for this chain's application must target. */
  port: string;
  /** Name of the collection a class received on `channel` gets on this chain. */
  localClassName(channel: string, classId: string): string;
}

// MsgRecvPacketResponse.result values (ResponseResultType).
const RESULT_NOOP = 1;
const RESULT_SUCCESS = 2;

const DEFAULT_CHANNELS: Record<string, ChannelEnd> = {
  'channel-0': { connectionId: 'connection-0', ordering: 'ORDER_UNORDERED' },
};

export function createNftTransferModule(options: NftTransferOptions): NftTransfer {
  const { prefix } = options;
  const channels = options.channels ?? DEFAULT_CHANNELS;
  const port = options.vm === 'move' ? (options.port ?? NFT_TRANSFER_PORT) : `wasm.${options.ics721}`;
  const localClassName = (channel: string, classId: string) =>
    options.vm === 'move'
      ? nftTransferClassId(port, channel, classId)
      : prefixedClassId(port, channel, classId);

  /** The application callback; returns its events and acknowledgement, keeping its writes only on success. */
  function onRecvPacket(ctx: TxContext, packet: Packet): { events: AbciEvent[]; ack: Uint8Array } {
    const events: AbciEvent[] = [];
    let data: PacketData | undefined;
    let failure: TxError | undefined;
    try {
      data = decodePacketData(packet.data);
    } catch {
      failure = new TxError('sdk', 29, 'cannot unmarshal ICS-721 nft-transfer packet data: invalid type');
    }
    ctx.store.checkpoint();
    try {
      if (data && options.vm === 'move') {
        if (data.classId.startsWith(`${packet.sourcePort}/${packet.sourceChannel}/`))
          throw new TxError('undefined', 1, 'returning an NFT to its origin chain is not simulated here');
        receiveVoucherOnMove(ctx, { move: options.move, prefix, auth: options.auth }, packet, data, events);
      } else if (data && options.vm === 'wasm') {
        const codeId = options.voucherCodeId ?? CW721_CODE_ID;
        receiveVoucherOnWasm(
          ctx,
          { wasm: options.wasm, ics721: options.ics721, codeId, prefix },
          packet,
          data,
          events,
        );
      }
    } catch (err) {
      if (!(err instanceof TxError)) {
        ctx.store.revert();
        throw err;
      }
      failure = err;
    }
    if (options.vm === 'move') {
      // initia's IBCModule reports every receive, successful or not.
      const attributes: Record<string, string> = {
        module: 'nft-transfer',
        sender: data?.sender ?? '',
        receiver: data?.receiver ?? '',
        class_id: data?.classId ?? '',
        token_ids: (data?.tokenIds ?? []).join(','),
        memo: data?.memo ?? '',
        success: String(failure === undefined),
      };
      if (failure) attributes.error = failure.message;
      events.push(event('non_fungible_token_packet', attributes));
    }
    if (failure) {
      ctx.store.revert();
      return { events: toErrorEvents(events), ack: errorAck(failure.code) };
    }
    ctx.store.commit();
    return { events, ack: SUCCESS_ACK };
  }

  const module: MsgModule = {
    name: 'ibc',
    typeUrls: [MSG_RECV_PACKET],
    signers: (msg) => [decodeAny(msg).signer as string],
    execute(ctx, msg) {
      const m = decodeAny(msg);
      const packet = m.packet as Packet | undefined;
      if (!packet) throw new TxError('channel', 13, 'packet cannot be nil: invalid packet');
      if (m.proofCommitment.length === 0) {
        throw new TxError('commitment', 2, 'cannot submit an empty proof: invalid proof');
      }
      if (packet.sequence === 0n)
        throw new TxError('channel', 13, 'packet sequence cannot be 0: invalid packet');
      if (packet.data.length === 0)
        throw new TxError('channel', 13, 'packet data bytes cannot be empty: invalid packet');
      const noTimeout =
        (packet.timeoutHeight?.revisionHeight ?? 0n) === 0n &&
        (packet.timeoutHeight?.revisionNumber ?? 0n) === 0n &&
        packet.timeoutTimestamp === 0n;
      if (noTimeout) {
        throw new TxError(
          'channel',
          13,
          'packet timeout height and packet timeout timestamp cannot both be 0: invalid packet',
        );
      }
      const channel = packet.destinationPort === port ? channels[packet.destinationChannel] : undefined;
      const respond = (result: number) => ({
        typeUrl: '/ibc.core.channel.v1.MsgRecvPacketResponse',
        value: MsgRecvPacketResponse.encode({ result }).finish(),
      });
      if (!receivePacket(ctx, packet, channel)) return respond(RESULT_NOOP);

      const { events, ack } = onRecvPacket(ctx, packet);
      ctx.store.set(
        `ibc/ack/${packet.destinationPort}/${packet.destinationChannel}/${packet.sequence}`,
        Buffer.from(sha256(ack)).toString('hex'),
      );
      ctx.events.push(
        ...appendMsgIndex(
          [...recvPacketEvents(packet, channel!), ...events, ...writeAckEvents(packet, channel!, ack)],
          ctx.msgIndex,
        ),
      );
      return respond(RESULT_SUCCESS);
    },
  };

  return { module, port, localClassName };
}
