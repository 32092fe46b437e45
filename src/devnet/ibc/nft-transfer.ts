import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { MsgRecvPacketResponse } from '@initia/initia.proto/ibc/core/channel/v1/tx.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromBech32 } from '../../chain/address.js';
import { bcs } from '../../chain/bcs.js';
import { decodeAny } from '../../chain/registry.js';
import { appendMsgIndex, event } from '../events.js';
import { collectionAddress, padMoveAddress, STD_ADDRESS } from '../move/address.js';
import type { MoveExecutor } from '../move/executor.js';
import { moveState } from '../move/state.js';
import type { Auth } from '../state/auth.js';
import { type AbciEvent, type MsgModule, type TxContext, TxError } from '../types.js';
import { CW721_CODE_ID, type WasmKeeper } from '../wasm/keeper.js';
import {
  type ChannelEnd,
  errorAck,
  receivePacket,
  recvPacketEvents,
  SUCCESS_ACK,
  toErrorEvents,
  writeAckEvents,
} from './channel.js';
import {
  decodePacketData,
  MSG_RECV_PACKET,
  NFT_TRANSFER_PORT,
  nftTransferClassId,
  prefixedClassId,
} from './packet.js';

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

type PacketData = ReturnType<typeof decodePacketData>;

// MsgRecvPacketResponse.result values (ResponseResultType).
const RESULT_NOOP = 1;
const RESULT_SUCCESS = 2;

const DEFAULT_CHANNELS: Record<string, ChannelEnd> = {
  'channel-0': { connectionId: 'connection-0', ordering: 'ORDER_UNORDERED' },
};

/** nft-transfer `ValidateBasic` of the packet data. */
function validatePacketData(d: PacketData): void {
  if (d.sender.trim() === '') throw new TxError('sdk', 7, 'sender address cannot be blank: invalid address');
  if (d.receiver.trim() === '')
    throw new TxError('sdk', 7, 'receiver address cannot be blank: invalid address');
  if (d.classId.trim() === '') {
    throw new TxError('nft-transfer', 5, 'invalid zero length class id: invalid class id');
  }
  if (d.tokenIds.length === 0)
    throw new TxError('nft-transfer', 6, 'invalid zero length token ids: invalid token ids');
  const invalidPacket = (what: string) =>
    new TxError(
      'nft-transfer',
      7,
      `the length of ${what} must be 0 or the same as the length of TokenIds: invalid non-fungible token packet`,
    );
  if (d.tokenUris.length !== d.tokenIds.length) throw invalidPacket('tokenUri');
  if (d.tokenData.length !== d.tokenIds.length) throw invalidPacket('tokenData');
  const seen = new Set<string>();
  for (const id of d.tokenIds) {
    if (id.trim() === '')
      throw new TxError('nft-transfer', 6, 'invalid zero length token id: invalid token ids');
    if (seen.has(id)) throw new TxError('nft-transfer', 6, `duplicate token id: ${id}: invalid token ids`);
    seen.add(id);
  }
}

function receiverBytes(receiver: string, prefix: string): Uint8Array {
  const decoded = (() => {
    try {
      return fromBech32(receiver);
    } catch (err) {
      throw new TxError('undefined', 1, `decoding bech32 failed: ${(err as Error).message}`);
    }
  })();
  if (decoded.prefix !== prefix) {
    throw new TxError(
      'sdk',
      35,
      `hrp does not match bech32 prefix: expected '${prefix}' got '${decoded.prefix}': internal logic error`,
    );
  }
  return decoded.bytes;
}

export function createNftTransferModule(options: NftTransferOptions): NftTransfer {
  const { prefix } = options;
  const channels = options.channels ?? DEFAULT_CHANNELS;
  const port = options.vm === 'move' ? (options.port ?? NFT_TRANSFER_PORT) : `wasm.${options.ics721}`;
  const localClassName = (channel: string, classId: string) =>
    options.vm === 'move'
      ? nftTransferClassId(port, channel, classId)
      : prefixedClassId(port, channel, classId);

  /** initia's `OnRecvPacket` + Move `NftKeeper` (voucher path: the class came from the sender chain). */
  function receiveOnMove(
    ctx: TxContext,
    move: MoveExecutor,
    packet: Packet,
    data: PacketData,
    events: AbciEvent[],
  ) {
    validatePacketData(data);
    const receiver = receiverBytes(data.receiver, prefix);
    options.auth?.ensure(ctx.store, data.receiver);
    if (data.classId.startsWith(`${packet.sourcePort}/${packet.sourceChannel}/`)) {
      throw new TxError(
        'undefined',
        1,
        'returning an NFT to its origin chain is not simulated by the devnet',
      );
    }
    const fullPath = prefixedClassId(packet.destinationPort, packet.destinationChannel, data.classId);
    const traceHash = Buffer.from(sha256(new TextEncoder().encode(fullPath)))
      .toString('hex')
      .toUpperCase();
    const voucherClassId = nftTransferClassId(
      packet.destinationPort,
      packet.destinationChannel,
      data.classId,
    );
    ctx.store.set(`ibc/nft/trace/${traceHash}`, fullPath);
    events.push(event('class_trace', { trace_hash: traceHash, class_id: voucherClassId }));

    const call = (functionName: string, args: Uint8Array[]) =>
      events.push(
        ...move.execute(ctx, {
          senders: [STD_ADDRESS],
          moduleAddress: STD_ADDRESS,
          moduleName: 'initia_nft',
          functionName,
          typeArgs: [],
          args,
        }),
      );
    const none = Uint8Array.of(0);
    if (!moveState.collection(ctx.store, collectionAddress(STD_ADDRESS, voucherClassId))) {
      // `initializeCollection`: the class data becomes the description, nothing is mutable, royalty 0.
      call('create_collection', [
        bcs.string(data.classData),
        none,
        bcs.string(voucherClassId),
        bcs.string(data.classUri),
        none,
        none,
        none,
        none,
        none,
        none,
      ]);
    }
    data.tokenIds.forEach((tokenId, i) => {
      call('mint', [
        bcs.string(voucherClassId),
        bcs.string(data.tokenData[i]!),
        bcs.string(tokenId),
        bcs.string(data.tokenUris[i]!),
        bcs.bool(true),
        bcs.option(padMoveAddress(receiver), bcs.address),
      ]);
    });
  }

  /** The ICS-721 contract's receive: one cw721 per local class id, minted by the contract. */
  function receiveOnWasm(
    ctx: TxContext,
    wasm: WasmKeeper,
    ics721: string,
    codeId: bigint,
    packet: Packet,
    data: PacketData,
    events: AbciEvent[],
  ) {
    validatePacketData(data);
    receiverBytes(data.receiver, prefix);
    const localClassId = prefixedClassId(packet.destinationPort, packet.destinationChannel, data.classId);
    const classKey = `ibc/nft/wasm-class/${encodeURIComponent(localClassId)}`;
    let contract = ctx.store.get(classKey);
    if (contract === undefined) {
      const created = wasm.instantiate(ctx, {
        codeId,
        creator: ics721,
        label: `ics721 voucher ${localClassId}`,
        msg: { name: localClassId, symbol: localClassId, minter: ics721 },
      });
      contract = created.address;
      ctx.store.set(classKey, contract);
      events.push(...created.events);
    }
    data.tokenIds.forEach((tokenId, i) => {
      const mint: Record<string, unknown> = { token_id: tokenId, owner: data.receiver, extension: null };
      if (data.tokenUris[i] !== '') mint.token_uri = data.tokenUris[i];
      events.push(...wasm.execute(ctx, { contract: contract!, sender: ics721, msg: { mint } }));
    });
  }

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
      if (data && options.vm === 'move') receiveOnMove(ctx, options.move, packet, data, events);
      else if (data && options.vm === 'wasm') {
        const codeId = options.voucherCodeId ?? CW721_CODE_ID;
        receiveOnWasm(ctx, options.wasm, options.ics721, codeId, packet, data, events);
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
