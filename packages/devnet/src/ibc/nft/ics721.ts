import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { decodePacketData, encodePacketData, hasHop } from 'weft/protocol/ics721.js';
import type { StateReader } from '../../state/store.js';
import { type AbciEvent, type BlockContext, type TxContext, TxError } from '../../types.js';
import { ContractError } from '../../wasm/contract.js';
import type { WasmCallContext, WasmKeeper } from '../../wasm/keeper.js';
import type { IbcCore } from '../core/module.js';
import { type PacketData, wasmClassKey, wasmVoucherKey } from './receive.js';

/**
 * cw-ics721 on the Wasm rollup, as the chain's module behind the contract's address: a cw721's `send_nft`
 * to it (`receive_nft` with an `IbcOutgoingMsg`) escrows the NFT (a voucher going back is burned) and sends
 * the packet from `wasm.<contract>`; a class coming back is released from escrow; a failed send is refunded.
 * Its queries answer what InterwovenKit asks of it (`class_id`, `nft_contract`, `outgoing_proxy`).
 */

interface OutgoingMsg {
  receiver: string;
  channel_id: string;
  timeout: { timestamp?: string; block?: unknown };
  memo?: string | null;
}

export interface Ics721 {
  release(ctx: TxContext, packet: Packet, data: PacketData, events: AbciEvent[]): void;
  refund(ctx: TxContext, packet: Packet, events: AbciEvent[]): void;
}

export function bindIcs721(options: {
  core: IbcCore;
  wasm: WasmKeeper;
  ics721: string;
  port: string;
}): Ics721 {
  const { core, wasm, ics721, port } = options;
  const run = (ctx: WasmCallContext, contract: string, msg: object) =>
    wasm.execute(ctx, { contract, sender: ics721, msg });
  /** The cw721 holding a class on this chain: a collection of its own, or the voucher of a received class. */
  const contractOf = (state: StateReader, path: string) => {
    if (!hasHop(path)) return path;
    const voucher = state.get(wasmClassKey(path));
    if (!voucher) throw new TxError('wasm', 5, `no cw721 for class ${path}: execute wasm contract failed`);
    return voucher;
  };

  function receiveNft(ctx: WasmCallContext, collection: string, msg: any): AbciEvent[] {
    const body = msg?.receive_nft;
    if (!body || typeof body.token_id !== 'string' || typeof body.msg !== 'string')
      throw new ContractError('Error parsing into type ics721::msg::ExecuteMsg: unknown variant');
    let outgoing: OutgoingMsg;
    try {
      outgoing = JSON.parse(Buffer.from(body.msg, 'base64').toString());
    } catch {
      throw new ContractError('Error parsing into type ics721_types::ibc_types::IbcOutgoingMsg');
    }
    if (
      typeof outgoing?.receiver !== 'string' ||
      typeof outgoing.channel_id !== 'string' ||
      !outgoing.timeout?.timestamp
    )
      throw new ContractError('Error parsing into type ics721_types::ibc_types::IbcOutgoingMsg');
    const classId = ctx.store.get(wasmVoucherKey(collection)) ?? collection;
    const events: AbciEvent[] = [];
    // The NFT is the contract's now (send_nft moved it); one going back where it came from is burned.
    if (classId.startsWith(`${port}/${outgoing.channel_id}/`))
      events.push(...run(ctx, collection, { burn: { token_id: body.token_id } }));
    const info = wasm.query(
      ctx.store,
      { height: ctx.height, timeNanos: BigInt(ctx.timeMs) * 1_000_000n },
      collection,
      {
        nft_info: { token_id: body.token_id },
      },
    ) as { token_uri?: string | null } | undefined;
    const data = {
      classId,
      tokenIds: [body.token_id],
      tokenUris: [info?.token_uri ?? ''],
      tokenData: [''],
      sender: body.sender,
      receiver: outgoing.receiver,
      memo: outgoing.memo ?? '',
    };
    core.sendPacket(
      // The msg server's context: a contract call runs within its tx.
      ctx as unknown as BlockContext,
      {
        sourcePort: port,
        sourceChannel: outgoing.channel_id,
        timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
        timeoutTimestamp: BigInt(outgoing.timeout.timestamp),
        data: encodePacketData(data),
      },
      events,
    );
    return events;
  }

  wasm.bindNative(ics721, {
    execute: (ctx, sender, msg) => receiveNft(ctx, sender, msg),
    query(state, msg: any) {
      if (msg?.class_id) return state.get(wasmVoucherKey(String(msg.class_id.contract))) ?? null;
      if (msg?.nft_contract) return state.get(wasmClassKey(String(msg.nft_contract.class_id))) ?? null;
      if (msg?.outgoing_proxy) return null;
      throw new ContractError('Error parsing into type ics721::msg::QueryMsg: unknown variant');
    },
  });

  return {
    release(ctx, packet, data, events) {
      const local = data.classId.slice(`${packet.sourcePort}/${packet.sourceChannel}/`.length);
      const contract = contractOf(ctx.store, local);
      for (const tokenId of data.tokenIds)
        events.push(...run(ctx, contract, { transfer_nft: { recipient: data.receiver, token_id: tokenId } }));
    },
    refund(ctx, packet, events) {
      const data = decodePacketData(packet.data);
      const burned = data.classId.startsWith(`${packet.sourcePort}/${packet.sourceChannel}/`);
      const contract = contractOf(ctx.store, data.classId);
      data.tokenIds.forEach((tokenId, i) => {
        const msg = burned
          ? {
              mint: {
                token_id: tokenId,
                owner: data.sender,
                token_uri: data.tokenUris[i] || undefined,
                extension: null,
              },
            }
          : { transfer_nft: { recipient: data.sender, token_id: tokenId } };
        events.push(...run(ctx, contract, msg));
      });
    },
  };
}
