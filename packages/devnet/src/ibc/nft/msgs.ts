import {
  MsgTransfer,
  MsgTransferResponse,
} from '@initia/initia.proto/ibc/applications/nft_transfer/v1/tx.js';
import { appendMsgIndex } from '../../events.js';
import { GasCost } from '../../gas.js';
import { type AbciEvent, type MsgModule, TxError } from '../../types.js';
import type { NftApp } from './app.js';

export const MSG_NFT_TRANSFER = '/ibc.applications.nft_transfer.v1.MsgTransfer';

/** initia's nft-transfer msg server: `MsgTransfer` of NFTs of one Move collection from a user's tx. */
export function createNftTransferMsgModule(nft: NftApp): MsgModule {
  return {
    name: 'nft-transfer',
    typeUrls: [MSG_NFT_TRANSFER],
    signers: (msg) => [MsgTransfer.decode(msg.value).sender],
    async execute(ctx, msg) {
      const m = MsgTransfer.decode(msg.value);
      if (m.tokenIds.length === 0)
        throw new TxError('nft-transfer', 6, 'invalid zero length token ids: invalid token ids');
      if (m.receiver.trim() === '') throw new TxError('ibc', 5, 'missing recipient address: invalid address');
      const height = m.timeoutHeight ?? { revisionNumber: 0n, revisionHeight: 0n };
      if (height.revisionHeight === 0n && m.timeoutTimestamp === 0n)
        throw new TxError(
          'channel',
          13,
          'packet timeout height and packet timeout timestamp cannot both be 0: invalid packet',
        );
      ctx.gas.consume(GasCost.bankSend * BigInt(2 + m.tokenIds.length), 'nft transfer');
      const events: AbciEvent[] = [];
      const packet = nft.send(
        ctx,
        {
          sourcePort: m.sourcePort,
          sourceChannel: m.sourceChannel,
          classId: m.classId,
          tokenIds: m.tokenIds,
          sender: m.sender,
          receiver: m.receiver,
          timeoutTimestamp: m.timeoutTimestamp,
          memo: m.memo,
        },
        events,
      );
      ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
      return {
        typeUrl: '/ibc.applications.nft_transfer.v1.MsgTransferResponse',
        value: MsgTransferResponse.encode({ sequence: packet.sequence }).finish(),
      };
    },
  };
}
