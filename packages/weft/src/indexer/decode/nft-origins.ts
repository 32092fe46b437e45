import { attributesOf } from '../../protocol/events.js';
import { nftTransferClassId, prefixedClassId } from '../../protocol/ics721.js';
import type { BlockEvent } from './block-events.js';
import { type DropReporter, ignoreDrops } from './drops.js';

/**
 * ICS-721 receives (rollytics nft-pair): a `recv_packet` from an `nft-transfer` (or ICS-721 contract `wasm.…`)
 * port names the local collection the class lands in, whose origin name is the L1 collection's name carried
 * in the packet's `classData` (base64 JSON `{name, description}`). The local name is `port/channel/classId`
 * on Wasm (`GetPrefixedClassId`) and `ibc/<HASH>` of that path elsewhere (`GetNftTransferClassId`).
 */
export function nftOrigins(
  events: BlockEvent[],
  vm: 'evm' | 'move' | 'wasm',
  drops: DropReporter = ignoreDrops,
): Array<{ className: string; originName: string }> {
  const out: Array<{ className: string; originName: string }> = [];
  for (const { event } of events) {
    if (event.type !== 'recv_packet') continue;
    const attrs = attributesOf(event);
    const srcPort = attrs.packet_src_port;
    if (srcPort !== 'nft-transfer' && !srcPort?.startsWith('wasm.')) continue;
    const dstPort = attrs.packet_dst_port;
    const dstChannel = attrs.packet_dst_channel;
    const packetData = attrs.packet_data;
    if (dstPort === undefined || dstChannel === undefined || packetData === undefined) {
      drops.drop('nft_origin', 'missing_attribute', { srcPort });
      continue;
    }
    let packet: { classId?: unknown; classData?: unknown } | null;
    try {
      packet = JSON.parse(packetData);
    } catch {
      drops.drop('nft_origin', 'bad_json', { srcPort });
      continue;
    }
    const classId = packet?.classId;
    // Class data is optional in ICS-721: a class without it has no origin name to record.
    const classData = packet?.classData;
    if (typeof classData !== 'string' || classData === '') continue;
    let originName: unknown;
    try {
      originName = (
        JSON.parse(Buffer.from(classData, 'base64').toString('utf8')) as { name?: unknown } | null
      )?.name;
    } catch {
      drops.drop('nft_origin', 'bad_json', { srcPort, classId });
      continue;
    }
    if (typeof classId !== 'string' || typeof originName !== 'string') {
      drops.drop('nft_origin', 'bad_fields', { srcPort });
      continue;
    }
    const className =
      vm === 'wasm'
        ? prefixedClassId(dstPort, dstChannel, classId)
        : nftTransferClassId(dstPort, dstChannel, classId);
    out.push({ className, originName });
  }
  return out;
}
