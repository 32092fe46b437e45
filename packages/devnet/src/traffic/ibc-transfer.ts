import { fromBech32, toBech32 } from 'weft/chain/address.js';
import { encodeAny } from 'weft/chain/registry.js';
import { MSG_TRANSFER } from '../ibc/transfer/module.js';
import { successfulTxEvents } from './events.js';
import type { PlannedTx, TrafficContext, TrafficPlan } from './generator.js';

/**
 * ICS-20 transfers over the chain's channels: the fee denom out, vouchers the accounts received sent back
 * home, and some that fail on the way (an invalid receiver gets an error ack, a timeout already past is
 * timed out), each refunded by the relayer's acknowledgement or timeout.
 */

export interface TransferTrafficChannel {
  channelId: string;
  /** bech32 prefix of the counterparty chain's accounts. */
  counterpartyPrefix: string;
}

const TEN_MINUTES_NS = 600_000_000_000n;

export function ibcTransferPlan(options: {
  channels: TransferTrafficChannel[];
  weight?: number;
}): TrafficPlan {
  // Vouchers each account received: address → denom → { channel it came in on, amount }.
  const vouchers = new Map<string, Map<string, { channel: string; amount: bigint }>>();

  const timeNs = (ctx: TrafficContext) => {
    const block = ctx.chain.getBlock(ctx.chain.latestHeight());
    return (
      BigInt(Date.parse((block?.block.block.header.time as string) ?? '1970-01-01T00:00:00Z')) * 1_000_000n
    );
  };

  const transfer = (input: {
    sender: string;
    channel: string;
    denom: string;
    amount: string;
    receiver: string;
    timeoutNs: bigint;
  }) =>
    encodeAny(MSG_TRANSFER, {
      sourcePort: 'transfer',
      sourceChannel: input.channel,
      token: { denom: input.denom, amount: input.amount },
      sender: input.sender,
      receiver: input.receiver,
      timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
      timeoutTimestamp: input.timeoutNs,
    });

  return {
    name: 'ibc-transfer',
    interchain: true,
    weight: options.weight ?? 0.5,
    observe(record) {
      let channel = '';
      let voucher = '';
      for (const e of successfulTxEvents(record)) {
        if (e.type === 'recv_packet') {
          channel = e.attrs.get('packet_dst_channel') ?? '';
          voucher = '';
        } else if (e.type === 'denomination_trace') voucher = e.attrs.get('denom') ?? '';
        else if (e.type === 'fungible_token_packet' && e.attrs.get('success') === 'true' && voucher !== '') {
          const receiver = e.attrs.get('receiver') ?? '';
          const held = vouchers.get(receiver) ?? new Map();
          const entry = held.get(voucher) ?? { channel, amount: 0n };
          entry.amount += BigInt(e.attrs.get('amount') ?? '0');
          held.set(voucher, entry);
          vouchers.set(receiver, held);
        }
      }
    },
    next(ctx): PlannedTx | undefined {
      if (options.channels.length === 0) return undefined;
      const from = ctx.rng.pick(ctx.accounts);
      const held = [...(vouchers.get(from.address) ?? new Map()).entries()].filter(([, v]) => v.amount > 0n);
      const now = timeNs(ctx);
      const roll = ctx.rng.int(0, 9);
      if (roll < 3 && held.length > 0) {
        const [denom, entry] = ctx.rng.pick(held);
        const amount = entry.amount < 10n ? entry.amount : entry.amount / 2n;
        entry.amount -= amount;
        const counterparty = options.channels.find((c) => c.channelId === entry.channel);
        const receiver = toBech32(counterparty?.counterpartyPrefix ?? 'init', fromBech32(from.address).bytes);
        return {
          kind: 'cosmos',
          signer: from,
          msgs: [
            transfer({
              sender: from.address,
              channel: entry.channel,
              denom,
              amount: String(amount),
              receiver,
              timeoutNs: now + TEN_MINUTES_NS,
            }),
          ],
          gasLimit: 300_000n,
        };
      }
      const channel = ctx.rng.pick(options.channels);
      const receiver = toBech32(channel.counterpartyPrefix, fromBech32(from.address).bytes);
      const amount = String(ctx.rng.int(1, 100_000));
      const base = { sender: from.address, channel: channel.channelId, denom: ctx.chain.info.denom, amount };
      const msg =
        roll === 8
          ? transfer({ ...base, receiver: 'not-a-bech32-address', timeoutNs: now + TEN_MINUTES_NS })
          : roll === 9
            ? transfer({ ...base, receiver, timeoutNs: now + 1_000_000n })
            : transfer({ ...base, receiver, timeoutNs: now + TEN_MINUTES_NS });
      return { kind: 'cosmos', signer: from, msgs: [msg], gasLimit: 300_000n };
    },
  };
}
