import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { bcs } from 'weft/chain/bcs.js';
import { collectionAddress, padMoveAddress, STD_ADDRESS } from 'weft/chain/move-object.js';
import { pathHash } from 'weft/protocol/ics20.js';
import {
  type decodePacketData,
  prefixedClassId,
  voucherClassId as voucherClassIdOf,
} from 'weft/protocol/ics721.js';
import { event } from '../../events.js';
import type { MoveExecutor } from '../../move/executor.js';
import { accAddress } from '../../move/module.js';
import { moveState } from '../../move/state.js';
import type { Auth } from '../../state/auth.js';
import { type AbciEvent, type TxContext, TxError } from '../../types.js';
import type { WasmKeeper } from '../../wasm/keeper.js';

/**
 * The receiving side of ICS-721 when the class is new to the chain (a voucher): initia's nft-transfer keeper
 * on Move chains, which calls `0x1::initia_nft` as `0x1` to create the `ibc/<hash>` collection and mint, and
 * the cw-ics721 contract on Wasm rollups, which instantiates a cw721 named `<port>/<channel>/<class id>` and
 * mints as its minter.
 */

export type PacketData = ReturnType<typeof decodePacketData>;

/** nft-transfer `ValidateBasic` of the packet data. */
export function validatePacketData(d: PacketData): void {
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

/** Where a Move chain keeps the trace of an `ibc/<hash>` class: its full path. */
export const classTraceKey = (hash: string) => `ibc/nft/trace/${hash}`;

/** Move: the `ibc/<hash>` collection of the class as it arrives, created once, minted to the receiver. */
export function receiveVoucherOnMove(
  ctx: TxContext,
  chain: { move: MoveExecutor; prefix: string; auth?: Pick<Auth, 'ensure'> },
  packet: Packet,
  data: PacketData,
  events: AbciEvent[],
): void {
  validatePacketData(data);
  const receiver = accAddress(data.receiver, chain.prefix);
  chain.auth?.ensure(ctx.store, data.receiver);
  const fullPath = prefixedClassId(packet.destinationPort, packet.destinationChannel, data.classId);
  const traceHash = pathHash(fullPath);
  const voucherClassId = voucherClassIdOf(fullPath);
  ctx.store.set(classTraceKey(traceHash), fullPath);
  events.push(event('class_trace', { trace_hash: traceHash, class_id: voucherClassId }));

  const call = (functionName: string, args: Uint8Array[]) =>
    events.push(
      ...chain.move.execute(ctx, {
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

/** Where the cw-ics721 contract keeps the cw721 of a local class id. */
export const wasmClassKey = (localClassId: string) =>
  `ibc/nft/wasm-class/${encodeURIComponent(localClassId)}`;

/** The local class id of a cw721 the ICS-721 contract instantiated for a class it received. */
export const wasmVoucherKey = (contract: string) => `ibc/nft/wasm-voucher/${contract}`;

/** Wasm: one cw721 per local class id, instantiated and minted by the ICS-721 contract. */
export function receiveVoucherOnWasm(
  ctx: TxContext,
  chain: { wasm: WasmKeeper; ics721: string; codeId: bigint; prefix: string },
  packet: Packet,
  data: PacketData,
  events: AbciEvent[],
): void {
  validatePacketData(data);
  accAddress(data.receiver, chain.prefix);
  const localClassId = prefixedClassId(packet.destinationPort, packet.destinationChannel, data.classId);
  const classKey = wasmClassKey(localClassId);
  let contract = ctx.store.get(classKey);
  if (contract === undefined) {
    const created = chain.wasm.instantiate(ctx, {
      codeId: chain.codeId,
      creator: chain.ics721,
      label: `ics721 voucher ${localClassId}`,
      msg: { name: localClassId, symbol: localClassId, minter: chain.ics721 },
    });
    contract = created.address;
    ctx.store.set(classKey, contract);
    ctx.store.set(wasmVoucherKey(contract), localClassId);
    events.push(...created.events);
  }
  data.tokenIds.forEach((tokenId, i) => {
    const mint: Record<string, unknown> = { token_id: tokenId, owner: data.receiver, extension: null };
    if (data.tokenUris[i] !== '') mint.token_uri = data.tokenUris[i];
    events.push(...chain.wasm.execute(ctx, { contract: contract!, sender: chain.ics721, msg: { mint } }));
  });
}
