import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, fromBech32, hexToBytes } from 'weft/chain/address.js';
import { bcs } from 'weft/chain/bcs.js';
import { collectionAddress, nftAddress, padMoveAddress, STD_ADDRESS } from 'weft/chain/move-object.js';
import { errorAck, parseAck, SUCCESS_ACK } from 'weft/protocol/ics20-packet.js';
import {
  classDataOf,
  decodePacketData,
  encodePacketData,
  hasHop,
  voucherClassId,
} from 'weft/protocol/ics721.js';
import { event } from '../../events.js';
import type { MoveExecutor } from '../../move/executor.js';
import { moveState } from '../../move/state.js';
import type { Auth } from '../../state/auth.js';
import { type AbciEvent, type BlockContext, type TxContext, TxError } from '../../types.js';
import { CW721_CODE_ID, type WasmKeeper } from '../../wasm/keeper.js';
import type { IbcApp, IbcCore, RecvResult } from '../core/module.js';
import { bindIcs721 } from './ics721.js';
import { classTraceKey, type PacketData, receiveVoucherOnMove, receiveVoucherOnWasm } from './receive.js';

/**
 * ICS-721 on a chain of the network, both ways: initia's nft-transfer module over Move collections (the L1
 * and the Move rollup: escrow a class of the chain's own, burn a voucher going back; release or mint on
 * receive; refund on an error acknowledgement or a timeout), and cw-ics721 on the Wasm rollup (`ics721.ts`
 * for its sends, releases and refunds; its vouchers as `receive.ts` mints them).
 */

export const NFT_VERSION = 'ics721-1';

export interface SendNftInput {
  sourcePort: string;
  sourceChannel: string;
  /** `move/<64 hex>` or `ibc/<hash>`. */
  classId: string;
  tokenIds: string[];
  sender: string;
  receiver: string;
  timeoutTimestamp: bigint;
  memo: string;
}

export interface NftApp {
  app: IbcApp;
  /** `SendNftTransfer` of a Move chain; answers the packet sent. */
  send(ctx: TxContext, input: SendNftInput, events: AbciEvent[]): Packet;
}

export type NftAppVm =
  | { kind: 'move'; move: MoveExecutor }
  | { kind: 'wasm'; wasm: WasmKeeper; ics721: string; voucherCodeId?: bigint };

/** `GetEscrowAddress` of nft-transfer: the first 20 bytes of sha256(`ics721-1\0<port>/<channel>`). */
export function nftEscrowAddress(port: string, channel: string): Uint8Array {
  const text = new TextEncoder().encode(`${NFT_VERSION}\0${port}/${channel}`);
  return sha256(text).subarray(0, 20);
}

export function createNftApp(options: {
  core: IbcCore;
  port: string;
  prefix: string;
  auth: Pick<Auth, 'ensure'>;
  vm: NftAppVm;
}): NftApp {
  const { core, port, prefix, vm } = options;
  const ics721 =
    vm.kind === 'wasm' ? bindIcs721({ core, wasm: vm.wasm, ics721: vm.ics721, port }) : undefined;

  const moveOf = () => {
    if (vm.kind !== 'move')
      throw new TxError('undefined', 1, 'this chain sends NFTs through its ics721 contract');
    return vm.move;
  };
  const call = (
    ctx: TxContext,
    signer: Uint8Array,
    moduleName: string,
    functionName: string,
    args: Uint8Array[],
    typeArgs: string[] = [],
  ) =>
    moveOf().execute(ctx, {
      senders: [signer],
      moduleAddress: STD_ADDRESS,
      moduleName,
      functionName,
      typeArgs,
      args,
    });

  /** The Move collection a class path names on this chain: its own `move/` object or the `ibc/<hash>` one. */
  function collectionOfPath(path: string): Uint8Array {
    if (hasHop(path)) return collectionAddress(STD_ADDRESS, voucherClassId(path));
    const own = path.match(/^move\/([0-9a-f]{64})$/);
    if (!own) throw new TxError('nft-transfer', 5, `${path}: not a class of this chain: invalid class id`);
    return hexToBytes(own[1]!);
  }

  const nftsOf = (ctx: BlockContext, collection: Uint8Array, tokenIds: string[]) => {
    const record = moveState.collection(ctx.store, collection);
    if (!record)
      throw new TxError(
        'nft-transfer',
        5,
        `collection ${bytesToHex(collection)} not found: invalid class id`,
      );
    return tokenIds.map((id) => {
      const address = nftAddress(hexToBytes(record.creator), record.name, id);
      const nft = moveState.nft(ctx.store, address);
      if (!nft) throw new TxError('nft-transfer', 6, `token ${id} not found: invalid token ids`);
      return { id, address, uri: nft.uri, record };
    });
  };

  const escrowOf = (p: string, c: string) => padMoveAddress(nftEscrowAddress(p, c));

  function send(ctx: TxContext, input: SendNftInput, events: AbciEvent[]): Packet {
    let fullPath: string;
    if (input.classId.startsWith('ibc/')) {
      const traced = ctx.store.get(classTraceKey(input.classId.slice(4)));
      if (!traced) throw new TxError('nft-transfer', 4, `${input.classId.slice(4)}: class trace not found`);
      fullPath = traced;
    } else fullPath = input.classId;
    const collection = collectionOfPath(fullPath);
    const sender = padMoveAddress(fromBech32(input.sender).bytes);
    const nfts = nftsOf(ctx, collection, input.tokenIds);
    const record = nfts[0]!.record;
    // The sending chain is the class's source unless the class came in over this very channel.
    const source = !fullPath.startsWith(`${input.sourcePort}/${input.sourceChannel}/`);
    for (const nft of nfts) {
      events.push(
        ...(source
          ? call(ctx, sender, 'object', 'transfer_call', [
              nft.address,
              escrowOf(input.sourcePort, input.sourceChannel),
            ])
          : call(ctx, sender, 'initia_nft', 'burn', [nft.address], ['0x1::initia_nft::InitiaNft'])),
      );
    }
    const data = {
      classId: fullPath,
      classUri: record.uri,
      classData: classDataOf(record.name, record.description),
      tokenIds: input.tokenIds,
      tokenUris: nfts.map((n) => n.uri),
      tokenData: nfts.map(() => ''),
      sender: input.sender,
      receiver: input.receiver,
      memo: input.memo,
    };
    const packet = core.sendPacket(
      ctx,
      {
        sourcePort: input.sourcePort,
        sourceChannel: input.sourceChannel,
        timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
        timeoutTimestamp: input.timeoutTimestamp,
        data: encodePacketData(data),
      },
      events,
    );
    events.push(
      event('transfer', {
        sender: input.sender,
        receiver: input.receiver,
        class_id: input.classId,
        token_ids: input.tokenIds.join(','),
        memo: input.memo,
      }),
      event('message', { module: 'nft-transfer' }),
    );
    return packet;
  }

  /** A class coming back to the chain it left: released from the channel's escrow to the receiver. */
  function release(ctx: TxContext, packet: Packet, data: PacketData, events: AbciEvent[]) {
    const local = data.classId.slice(`${packet.sourcePort}/${packet.sourceChannel}/`.length);
    const to = padMoveAddress(fromBech32(data.receiver).bytes);
    options.auth.ensure(ctx.store, data.receiver);
    for (const nft of nftsOf(ctx, collectionOfPath(local), data.tokenIds))
      events.push(
        ...call(ctx, escrowOf(packet.destinationPort, packet.destinationChannel), 'object', 'transfer_call', [
          nft.address,
          to,
        ]),
      );
  }

  function receive(ctx: TxContext, packet: Packet, data: PacketData, events: AbciEvent[]) {
    const returning = data.classId.startsWith(`${packet.sourcePort}/${packet.sourceChannel}/`);
    if (vm.kind === 'wasm') {
      if (returning) return ics721!.release(ctx, packet, data, events);
      receiveVoucherOnWasm(
        ctx,
        { wasm: vm.wasm, ics721: vm.ics721, codeId: vm.voucherCodeId ?? CW721_CODE_ID, prefix },
        packet,
        data,
        events,
      );
    } else if (returning) release(ctx, packet, data, events);
    else receiveVoucherOnMove(ctx, { move: vm.move, prefix, auth: options.auth }, packet, data, events);
  }

  /** `refundPacketToken`: the sender gets back what the send escrowed, or a voucher it burned. */
  function refund(ctx: TxContext, packet: Packet, events: AbciEvent[]) {
    if (ics721) return ics721.refund(ctx, packet, events);
    const data = decodePacketData(packet.data);
    const to = padMoveAddress(fromBech32(data.sender).bytes);
    if (!data.classId.startsWith(`${packet.sourcePort}/${packet.sourceChannel}/`)) {
      for (const nft of nftsOf(ctx, collectionOfPath(data.classId), data.tokenIds))
        events.push(
          ...call(ctx, escrowOf(packet.sourcePort, packet.sourceChannel), 'object', 'transfer_call', [
            nft.address,
            to,
          ]),
        );
      return;
    }
    const voucher = voucherClassId(data.classId);
    data.tokenIds.forEach((id, i) => {
      events.push(
        ...call(ctx, STD_ADDRESS, 'initia_nft', 'mint', [
          bcs.string(voucher),
          bcs.string(''),
          bcs.string(id),
          bcs.string(data.tokenUris[i] ?? ''),
          bcs.bool(true),
          bcs.option(to, bcs.address),
        ]),
      );
    });
  }

  const packetEvent = (data: PacketData, extra: Record<string, string>) =>
    event('non_fungible_token_packet', {
      module: 'nft-transfer',
      sender: data.sender,
      receiver: data.receiver,
      class_id: data.classId,
      token_ids: data.tokenIds.join(','),
      memo: data.memo,
      ...extra,
    });

  const app: IbcApp = {
    port,
    async onRecvPacket(ctx, packet, events): Promise<RecvResult> {
      let data: PacketData;
      try {
        data = decodePacketData(packet.data);
      } catch {
        return { ack: errorAck(29), success: false };
      }
      try {
        receive(ctx, packet, data, events);
      } catch (err) {
        if (!(err instanceof TxError)) throw err;
        events.push(packetEvent(data, { success: 'false', error: err.message }));
        return { ack: errorAck(err.code), success: false };
      }
      events.push(packetEvent(data, { success: 'true' }));
      return { ack: SUCCESS_ACK, success: true };
    },
    async onAcknowledgementPacket(ctx, packet, ackBytes, events) {
      const ack = parseAck(ackBytes);
      if (!ack.success) refund(ctx as TxContext, packet, events);
      events.push(
        packetEvent(
          decodePacketData(packet.data),
          ack.success ? { success: '\u0001' } : { error: String(ack.value) },
        ),
      );
    },
    async onTimeoutPacket(ctx, packet, events) {
      refund(ctx as TxContext, packet, events);
      const data = decodePacketData(packet.data);
      events.push(
        event('timeout', { module: 'nft-transfer', refund_receiver: data.sender, class_id: data.classId }),
      );
    },
  };
  core.bind(app);
  return { app, send };
}
