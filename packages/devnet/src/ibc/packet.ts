import { sha256 } from '@noble/hashes/sha2.js';
import { encodeAny } from 'weft/chain/registry.js';
import { encodePacketData, NFT_TRANSFER_PORT, type NftPacketData } from 'weft/protocol/ics721.js';
import type { AnyMsg } from '../types.js';

/** The `MsgRecvPacket` a relayer submits for an ICS-721 packet (weft/protocol/ics721.ts codes its data). */

export const MSG_RECV_PACKET = '/ibc.core.channel.v1.MsgRecvPacket';

export interface RecvPacketParams {
  /** The relayer. */
  signer: string;
  sequence: bigint;
  sourcePort?: string;
  sourceChannel: string;
  destinationPort?: string;
  destinationChannel: string;
  data: NftPacketData;
  timeoutHeight?: { revisionNumber: bigint; revisionHeight: bigint };
  /** Nanoseconds; defaults far in the future (a packet needs one of the two timeouts). */
  timeoutTimestamp?: bigint;
  proofHeight?: { revisionNumber: bigint; revisionHeight: bigint };
}

// 2100-01-01T00:00:00Z in nanoseconds.
const FAR_FUTURE_NS = 4_102_444_800_000_000_000n;

/** The `MsgRecvPacket` a relayer submits for an ICS-721 packet. */
export function buildNftRecvPacket(p: RecvPacketParams): AnyMsg {
  const data = encodePacketData(p.data);
  return encodeAny(MSG_RECV_PACKET, {
    packet: {
      sequence: p.sequence,
      sourcePort: p.sourcePort ?? NFT_TRANSFER_PORT,
      sourceChannel: p.sourceChannel,
      destinationPort: p.destinationPort ?? NFT_TRANSFER_PORT,
      destinationChannel: p.destinationChannel,
      data,
      timeoutHeight: p.timeoutHeight ?? { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp: p.timeoutTimestamp ?? (p.timeoutHeight ? 0n : FAR_FUTURE_NS),
    },
    // The devnet does not verify proofs; this stands in for the commitment proof bytes.
    proofCommitment: sha256(data),
    proofHeight: p.proofHeight ?? { revisionNumber: 0n, revisionHeight: 1n },
    signer: p.signer,
  });
}
