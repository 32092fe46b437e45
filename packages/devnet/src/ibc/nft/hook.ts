import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, fromBech32, hexToBytes, toBech32 } from 'weft/chain/address.js';
import { bcsReader, concatBytes } from 'weft/chain/bcs.js';
import { nftAddress, padMoveAddress, STD_ADDRESS } from 'weft/chain/move-object.js';
import { errorAck, parseAck } from 'weft/protocol/ics20-packet.js';
import { decodePacketData, encodePacketData } from 'weft/protocol/ics721.js';
import { moveDenom } from 'weft/protocol/move-denom.js';
import type { MoveExecutor } from '../../move/executor.js';
import { moveState } from '../../move/state.js';
import { type AbciEvent, type TxContext, TxError } from '../../types.js';
import type { IbcApp, IbcCore } from '../core/module.js';
import type { NftApp } from './app.js';

/**
 * initia's ibc-hooks (move hooks) over the L1's nft-transfer app, for the one hook a route sends NFTs on
 * with: a packet whose memo is `{"move":{"message":MsgExecute}}` of `0x1::nft_transfer::nft_transfer` and
 * whose receiver names that function (as is, or bech32 of its SHA-256) is received by the intermediate
 * account of (channel, sender), which then runs the function: `cosmos::nft_transfer` of the NFTs to the
 * receiver it names, keeping its recover address for an error acknowledgement or a timeout of that send.
 */

const FUNCTION = '0x1::nft_transfer::nft_transfer';
const SENDER_PREFIX = 'ibc-move-hook-intermediary';

/** `DeriveIntermediateSender`: `address.Hash("ibc-move-hook-intermediary", "<channel>/<sender>")`. */
export function intermediateSender(channel: string, sender: string, prefix: string): string {
  const typ = sha256(new TextEncoder().encode(SENDER_PREFIX));
  return toBech32(prefix, sha256(concatBytes([typ, new TextEncoder().encode(`${channel}/${sender}`)])));
}

interface Recover {
  recover: string;
  collection: string;
  tokenIds: string[];
}

const recoverKey = (packet: Pick<Packet, 'sourcePort' | 'sourceChannel' | 'sequence'>) =>
  `ibc/nft/hook-recover/${packet.sourcePort}/${packet.sourceChannel}/${packet.sequence}`;

function hookOf(memo: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(memo);
    return parsed && typeof parsed === 'object' && parsed.move ? parsed.move : undefined;
  } catch {
    return undefined;
  }
}

/** `add_cb_to_memo`: the module's ack callback (its `AckStore` id) under `move.async_callback`. */
function withCallback(ctx: TxContext, memo: string): string {
  const id = Number(ctx.store.get('ibc/nft/hook-callback') ?? '0');
  ctx.store.set('ibc/nft/hook-callback', String(id + 1));
  let obj: Record<string, any>;
  try {
    obj = memo === '' ? {} : JSON.parse(memo);
  } catch {
    throw new TxError('undefined', 1, 'ibc move hook error: the memo is not a JSON object');
  }
  obj.move = {
    ...(obj.move ?? {}),
    async_callback: { id, module_address: '0x1', module_name: 'nft_transfer' },
  };
  return JSON.stringify(obj);
}

export function withNftMoveHook(options: {
  core: IbcCore;
  nft: NftApp;
  move: MoveExecutor;
  prefix: string;
}): IbcApp {
  const { nft, prefix } = options;
  const inner = nft.app;
  const functionHash = toBech32(prefix, sha256(new TextEncoder().encode(FUNCTION)));

  /** The hook's call, as `0x1::nft_transfer::nft_transfer` runs it with the intermediate account's signer. */
  function forward(ctx: TxContext, sender: string, message: any, events: AbciEvent[]) {
    const id = `${message?.module_address}::${message?.module_name}::${message?.function_name}`;
    if (id !== FUNCTION)
      throw new TxError('undefined', 1, `ibc move hook error: only ${FUNCTION} is simulated`);
    const args = (message.args as string[]).map((a) => bcsReader(Buffer.from(a, 'base64')));
    if (args.length !== 10)
      throw new TxError('undefined', 1, 'ibc move hook error: NUMBER_OF_ARGUMENTS_MISMATCH');
    const recover = args[0]!.address();
    const receiver = args[1]!.string();
    const collection = args[2]!.address();
    const tokenIds = Array.from({ length: args[3]!.uleb128() }, () => args[3]!.string());
    const [port, channel] = [args[4]!.string(), args[5]!.string()];
    args[6]!.u64();
    args[7]!.u64();
    const timeout = args[8]!.u64();
    const memo = args[9]!.string();
    const record = moveState.collection(ctx.store, collection);
    if (!record) throw new TxError('undefined', 1, 'ibc move hook error: collection not found');
    const classId =
      record.creator === bytesToHex(STD_ADDRESS) && record.name.startsWith('ibc/')
        ? record.name
        : moveDenom(collection);
    const packet = nft.send(
      ctx,
      {
        sourcePort: port,
        sourceChannel: channel,
        classId,
        tokenIds,
        sender,
        receiver,
        timeoutTimestamp: timeout,
        memo: withCallback(ctx, memo),
      },
      events,
    );
    const kept: Recover = { recover: bytesToHex(recover), collection: bytesToHex(collection), tokenIds };
    ctx.store.set(recoverKey(packet), JSON.stringify(kept));
  }

  /** After a failed forward was refunded to the intermediate account: the NFTs go to the recover address. */
  function recoverAfter(ctx: TxContext, packet: Packet, failed: boolean, events: AbciEvent[]) {
    const raw = ctx.store.get(recoverKey(packet));
    if (raw === undefined) return;
    ctx.store.set(recoverKey(packet), undefined);
    if (!failed) return;
    const kept = JSON.parse(raw) as Recover;
    const record = moveState.collection(ctx.store, hexToBytes(kept.collection))!;
    const owner = padMoveAddress(fromBech32(decodePacketData(packet.data).sender).bytes);
    for (const id of kept.tokenIds)
      events.push(
        ...options.move.execute(ctx, {
          senders: [owner],
          moduleAddress: STD_ADDRESS,
          moduleName: 'object',
          functionName: 'transfer_call',
          typeArgs: [],
          args: [nftAddress(hexToBytes(record.creator), record.name, id), hexToBytes(kept.recover)],
        }),
      );
  }

  const app: IbcApp = {
    port: inner.port,
    async onRecvPacket(ctx, packet, events) {
      let data: ReturnType<typeof decodePacketData>;
      try {
        data = decodePacketData(packet.data);
      } catch {
        return inner.onRecvPacket(ctx, packet, events);
      }
      const hook = hookOf(data.memo);
      if (!hook?.message) return inner.onRecvPacket(ctx, packet, events);
      if (data.receiver !== FUNCTION && data.receiver !== functionHash)
        return { ack: errorAck(1), success: false };
      const sender = intermediateSender(packet.destinationChannel, data.sender, prefix);
      const received = await inner.onRecvPacket(
        ctx,
        { ...packet, data: encodePacketData({ ...data, receiver: sender }) },
        events,
      );
      if (!received?.success) return received;
      try {
        forward(ctx, sender, hook.message, events);
      } catch (err) {
        if (!(err instanceof TxError)) throw err;
        return { ack: errorAck(err.code), success: false };
      }
      return received;
    },
    async onAcknowledgementPacket(ctx, packet, ack, events) {
      await inner.onAcknowledgementPacket(ctx, packet, ack, events);
      recoverAfter(ctx as TxContext, packet, !parseAck(ack).success, events);
    },
    async onTimeoutPacket(ctx, packet, events) {
      await inner.onTimeoutPacket(ctx, packet, events);
      recoverAfter(ctx as TxContext, packet, true, events);
    },
  };
  options.core.bind(app);
  return app;
}
