import { createHash } from 'node:crypto';
import { attributeMap, type BlockEvent } from './block-events.js';

/**
 * ICS-721 receives (rollytics nft-pair): a `recv_packet` from an `nft-transfer` (or ICS-721 contract `wasm.…`)
 * port names the local collection the class lands in, whose origin name is the L1 collection's name carried
 * in the packet's `classData` (base64 JSON `{name, description}`). The local name is `port/channel/classId`
 * on Wasm (`GetPrefixedClassId`) and `ibc/<HASH>` of that path elsewhere (`GetNftTransferClassId`).
 */
export function nftOrigins(
  events: BlockEvent[],
  vm: 'evm' | 'move' | 'wasm',
): Array<{ className: string; originName: string }> {
  const out: Array<{ className: string; originName: string }> = [];
  for (const { event } of events) {
    if (event.type !== 'recv_packet') continue;
    const attrs = attributeMap(event);
    const srcPort = attrs.get('packet_src_port');
    if (srcPort !== 'nft-transfer' && !srcPort?.startsWith('wasm.')) continue;
    const dstPort = attrs.get('packet_dst_port');
    const dstChannel = attrs.get('packet_dst_channel');
    const packetData = attrs.get('packet_data');
    if (dstPort === undefined || dstChannel === undefined || packetData === undefined) continue;
    let classId: unknown;
    let originName: unknown;
    try {
      const packet = JSON.parse(packetData) as { classId?: unknown; classData?: unknown };
      classId = packet.classId;
      const classData = typeof packet.classData === 'string' ? packet.classData : '';
      originName = (JSON.parse(Buffer.from(classData, 'base64').toString('utf8')) as { name?: unknown }).name;
    } catch {
      continue;
    }
    if (typeof classId !== 'string' || typeof originName !== 'string') continue;
    const path = `${dstPort}/${dstChannel}/${classId}`;
    const className =
      vm === 'wasm' ? path : `ibc/${createHash('sha256').update(path).digest('hex').toUpperCase()}`;
    out.push({ className, originName });
  }
  return out;
}
