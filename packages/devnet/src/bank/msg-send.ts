import { MsgSend, MsgSendResponse } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { fromBech32 } from 'weft/chain/address.js';
import { GasCost } from '../gas.js';
import { type BankKeeper, type MsgModule, TxError } from '../types.js';

const TYPE_URL = '/cosmos.bank.v1beta1.MsgSend';

/**
 * `/cosmos.bank.v1beta1.MsgSend` over whichever bank keeper the chain has. The keeper itself creates the
 * recipient's account when it has none (the SDK's `SendCoins`), as for every other credit.
 */
export function createBankMsgModule(options: { bank: BankKeeper; prefix: string }): MsgModule {
  return {
    name: 'bank',
    typeUrls: [TYPE_URL],
    signers: (msg) => [MsgSend.decode(msg.value).fromAddress],
    async execute(ctx, msg) {
      const send = MsgSend.decode(msg.value);
      for (const [field, address] of [
        ['from', send.fromAddress],
        ['to', send.toAddress],
      ] as const) {
        try {
          if (fromBech32(address).prefix !== options.prefix) throw new Error('prefix');
        } catch {
          throw new TxError('sdk', 7, `invalid ${field} address: ${address}: invalid address`);
        }
      }
      if (send.amount.length === 0 || send.amount.some((c) => !/^[1-9]\d*$/.test(c.amount))) {
        throw new TxError(
          'sdk',
          10,
          `${send.amount.map((c) => `${c.amount}${c.denom}`).join(',')}: invalid coins`,
        );
      }
      ctx.gas.consume(GasCost.bankSend, 'bank send');
      await options.bank.send(ctx, send.fromAddress, send.toAddress, send.amount);
      return { typeUrl: '/cosmos.bank.v1beta1.MsgSendResponse', value: MsgSendResponse.encode({}).finish() };
    },
  };
}
