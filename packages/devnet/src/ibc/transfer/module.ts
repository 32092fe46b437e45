import { MsgTransfer, MsgTransferResponse } from '@initia/initia.proto/ibc/applications/transfer/v1/tx.js';
import { appendMsgIndex } from '../../events.js';
import { GasCost } from '../../gas.js';
import { type AbciEvent, type MsgModule, TxError } from '../../types.js';
import type { TransferKeeper } from './keeper.js';

export const MSG_TRANSFER = '/ibc.applications.transfer.v1.MsgTransfer';

const MAX_MEMO_BYTES = 32768;

/** The ICS-20 msg server: `MsgTransfer` from a user's tx. */
export function createTransferMsgModule(keeper: TransferKeeper): MsgModule {
  return {
    name: 'transfer',
    typeUrls: [MSG_TRANSFER],
    signers: (msg) => [MsgTransfer.decode(msg.value).sender],
    async execute(ctx, msg) {
      const m = MsgTransfer.decode(msg.value);
      if (!m.token) throw new TxError('ibc', 6, 'token cannot be nil: invalid coins');
      if (Buffer.byteLength(m.memo) > MAX_MEMO_BYTES) {
        throw new TxError('transfer', 11, `memo must not exceed ${MAX_MEMO_BYTES} bytes: invalid memo`);
      }
      const timeoutHeight = m.timeoutHeight ?? { revisionNumber: 0n, revisionHeight: 0n };
      if (
        timeoutHeight.revisionHeight === 0n &&
        timeoutHeight.revisionNumber === 0n &&
        m.timeoutTimestamp === 0n
      ) {
        throw new TxError(
          'channel',
          13,
          'packet timeout height and packet timeout timestamp cannot both be 0: invalid packet',
        );
      }
      ctx.gas.consume(GasCost.bankSend * 2n, 'ibc transfer');
      const events: AbciEvent[] = [];
      const packet = await keeper.transfer(
        ctx,
        {
          sourcePort: m.sourcePort,
          sourceChannel: m.sourceChannel,
          token: m.token,
          sender: m.sender,
          receiver: m.receiver,
          timeoutHeight,
          timeoutTimestamp: m.timeoutTimestamp,
          memo: m.memo,
        },
        events,
      );
      ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
      return {
        typeUrl: '/ibc.applications.transfer.v1.MsgTransferResponse',
        value: MsgTransferResponse.encode({ sequence: packet.sequence }).finish(),
      };
    },
  };
}
