import { sha256 } from '@noble/hashes/sha2.js';
import { toBech32 } from 'weft/chain/address.js';
import { classDataOf } from 'weft/protocol/ics721.js';
import { buildNftRecvPacket } from '../ibc/packet.js';
import type { DevAccount } from '../keys.js';
import { successfulTxEvents } from './events.js';
import type { TrafficPlan } from './generator.js';

/**
 * A relayer delivering ICS-721 packets from the L1: each class arrives once per channel with a few
 * tokens, so the rollup gets `ibc/…` (Move) or `nft-transfer/channel-N/…` (Wasm) collections whose
 * origin name is the L1 collection's name.
 */
export function nftReceivePlan(options: {
  relayer: DevAccount;
  accounts: readonly DevAccount[];
  destinationPort: string;
  weight?: number;
}): TrafficPlan {
  let sequence = 0n;
  // The L1 account that sent the NFTs (any L1 address; packets carry it as text).
  const sender = toBech32('init', sha256(new TextEncoder().encode('devnet-l1-nft-sender')).subarray(0, 20));
  return {
    name: 'ics721-receive',
    weight: options.weight ?? 0.4,
    observe(record) {
      // After a restart the replayed blocks tell which packet sequences were already received.
      for (const e of successfulTxEvents(record)) {
        if (e.type !== 'recv_packet' || e.attrs.get('packet_dst_port') !== options.destinationPort) continue;
        const seen = BigInt(e.attrs.get('packet_sequence') ?? '0');
        if (seen > sequence) sequence = seen;
      }
    },
    next({ rng }) {
      sequence += 1n;
      const classNumber = Number((sequence - 1n) / 3n) + 1;
      const receiver = rng.pick(options.accounts);
      const tokenIds = [`${sequence}`, `${sequence}-b`];
      return {
        kind: 'cosmos',
        signer: options.relayer,
        msgs: [
          buildNftRecvPacket({
            signer: options.relayer.address,
            sequence,
            sourceChannel: 'channel-0',
            destinationChannel: 'channel-0',
            destinationPort: options.destinationPort,
            data: {
              classId: `l1-collection-${classNumber}`,
              classUri: `https://l1.devnet.weft/collections/${classNumber}`,
              classData: classDataOf(`L1 Collection ${classNumber}`, 'an NFT collection of the devnet L1'),
              tokenIds,
              tokenUris: tokenIds.map((id) => `ipfs://l1/${classNumber}/${id}`),
              tokenData: tokenIds.map(() => ''),
              sender,
              receiver: receiver.address,
              memo: '',
            },
          }),
        ],
      };
    },
  };
}
