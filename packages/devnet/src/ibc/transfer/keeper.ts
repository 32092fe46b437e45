import type { Packet } from '@initia/initia.proto/ibc/core/channel/v1/channel.js';
import { fromBech32, toBech32 } from 'weft/chain/address.js';
import {
  denomPrefix,
  escrowAddressBytes,
  fullDenomPath,
  ibcDenom,
  parseDenomTrace,
  receivedDenom,
  senderChainIsSource,
  TRANSFER_PORT,
  traceHash,
} from 'weft/protocol/ics20.js';
import {
  decodeTransferData,
  encodeTransferData,
  errorAck,
  type FungibleTokenPacketData,
  parseAck,
  SUCCESS_ACK,
} from 'weft/protocol/ics20-packet.js';
import { event } from '../../events.js';
import type { Auth } from '../../state/auth.js';
import {
  type AbciEvent,
  type BankContext,
  type BankKeeper,
  type BlockContext,
  type Coin,
  TxError,
} from '../../types.js';
import type { IbcApp, IbcCore } from '../core/module.js';
import { denomTraceOf, setDenomTrace, transferKeys } from './denom.js';

/** ibc-go v8's ICS-20 keeper: escrow or burn on send, release or mint on receive, refunds on failure. */

export interface SendTransferInput {
  sourcePort: string;
  sourceChannel: string;
  token: Coin;
  sender: string;
  receiver: string;
  timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint };
  timeoutTimestamp: bigint;
  memo: string;
}

export interface TransferKeeper {
  app: IbcApp;
  port: string;
  escrowAddress(port: string, channel: string): string;
  moduleAddress: string;
  /** `sendTransfer` + the msg server's `ibc_transfer` event; returns the packet sent. */
  transfer(ctx: BlockContext, input: SendTransferInput, events: AbciEvent[]): Promise<Packet>;
  /** Fund movements the packet-forward middleware undoes a failed hop with. */
  funds: {
    send(ctx: BlockContext, from: string, to: string, coin: Coin, events: AbciEvent[]): Promise<void>;
    mintTo(ctx: BlockContext, to: string, coin: Coin, events: AbciEvent[]): Promise<void>;
    burnFrom(ctx: BlockContext, from: string, coin: Coin, events: AbciEvent[]): Promise<void>;
    /** Changes the total escrowed of a denom (`transfer/escrow/<denom>`). */
    addEscrow(ctx: BlockContext, denom: string, delta: bigint): void;
  };
}

// ibc-go's core error codes (codespace `ibc`) and transfer ones (codespace `transfer`).
const IBC_INSUFFICIENT_FUNDS = 3;
const IBC_INVALID_ADDRESS = 5;
const IBC_INVALID_COINS = 6;
const TRANSFER_INVALID_AMOUNT = 5;
const TRANSFER_TRACE_NOT_FOUND = 6;

export function createTransferKeeper(options: {
  core: IbcCore;
  bank: BankKeeper;
  auth: Auth;
  prefix: string;
  port?: string;
}): TransferKeeper {
  const { core, bank, auth, prefix } = options;
  const port = options.port ?? TRANSFER_PORT;
  const moduleAddress = auth.moduleAddress('transfer');
  const escrowAddress = (p: string, c: string) => toBech32(prefix, escrowAddressBytes(p, c));
  const bankCtx = (ctx: BlockContext, events: AbciEvent[]): BankContext => ({
    ...ctx,
    events,
    msgIndex: undefined,
  });

  const ensureModule = (ctx: BlockContext) => {
    const account = auth.ensure(ctx.store, moduleAddress);
    if (!account.module) {
      auth.put(ctx.store, moduleAddress, {
        ...account,
        module: { name: 'transfer', permissions: ['minter', 'burner'] },
      });
    }
  };
  const addEscrow = (ctx: BlockContext, denom: string, delta: bigint) => {
    const key = transferKeys.totalEscrow(denom);
    const next = BigInt(ctx.store.get(key) ?? '0') + delta;
    ctx.store.set(key, next === 0n ? undefined : next.toString());
  };
  const escrow = async (
    ctx: BlockContext,
    from: string,
    p: string,
    c: string,
    coin: Coin,
    events: AbciEvent[],
  ) => {
    const to = escrowAddress(p, c);
    await bank.send(bankCtx(ctx, events), from, to, [coin]);
    addEscrow(ctx, coin.denom, BigInt(coin.amount));
  };
  const unescrow = async (
    ctx: BlockContext,
    p: string,
    c: string,
    to: string,
    coin: Coin,
    events: AbciEvent[],
  ) => {
    await bank.send(bankCtx(ctx, events), escrowAddress(p, c), to, [coin]);
    addEscrow(ctx, coin.denom, -BigInt(coin.amount));
  };
  const mintTo = async (ctx: BlockContext, to: string, coin: Coin, events: AbciEvent[]) => {
    ensureModule(ctx);
    await bank.mint(bankCtx(ctx, events), moduleAddress, [coin]);
    await bank.send(bankCtx(ctx, events), moduleAddress, to, [coin]);
  };
  const burnFrom = async (ctx: BlockContext, from: string, coin: Coin, events: AbciEvent[]) => {
    if (!bank.burn) throw new TxError('undefined', 1, 'this chain cannot burn IBC vouchers');
    ensureModule(ctx);
    await bank.send(bankCtx(ctx, events), from, moduleAddress, [coin]);
    await bank.burn(bankCtx(ctx, events), moduleAddress, [coin]);
  };

  const checkAddress = (address: string, what: string) => {
    try {
      const decoded = fromBech32(address);
      if (decoded.prefix !== prefix)
        throw new Error(`invalid Bech32 prefix; expected ${prefix}, got ${decoded.prefix}`);
    } catch (err) {
      throw new TxError(
        'ibc',
        IBC_INVALID_ADDRESS,
        `${what} ${address}: ${(err as Error).message}: invalid address`,
      );
    }
  };

  async function transfer(ctx: BlockContext, input: SendTransferInput, events: AbciEvent[]): Promise<Packet> {
    const { token } = input;
    if (!/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(token.denom) || !/^\d+$/.test(token.amount)) {
      throw new TxError('ibc', IBC_INVALID_COINS, `${token.amount}${token.denom}: invalid coins`);
    }
    if (BigInt(token.amount) <= 0n) {
      throw new TxError('ibc', IBC_INSUFFICIENT_FUNDS, `${token.amount}${token.denom}: insufficient funds`);
    }
    checkAddress(input.sender, 'string could not be parsed as address:');
    if (input.receiver.trim() === '')
      throw new TxError('ibc', IBC_INVALID_ADDRESS, 'missing recipient address: invalid address');
    let fullPath = token.denom;
    if (token.denom.startsWith('ibc/')) {
      const trace = denomTraceOf(ctx.store, token.denom);
      if (!trace) {
        throw new TxError(
          'transfer',
          TRANSFER_TRACE_NOT_FOUND,
          `${token.denom.slice(4)}: denomination trace not found`,
        );
      }
      fullPath = fullDenomPath(trace);
    }
    if (senderChainIsSource(input.sourcePort, input.sourceChannel, fullPath)) {
      await escrow(ctx, input.sender, input.sourcePort, input.sourceChannel, token, events);
    } else {
      await burnFrom(ctx, input.sender, token, events);
    }
    const data: FungibleTokenPacketData = {
      denom: fullPath,
      amount: token.amount,
      sender: input.sender,
      receiver: input.receiver,
      memo: input.memo,
    };
    const packet = core.sendPacket(
      ctx,
      {
        sourcePort: input.sourcePort,
        sourceChannel: input.sourceChannel,
        timeoutHeight: input.timeoutHeight,
        timeoutTimestamp: input.timeoutTimestamp,
        data: encodeTransferData(data),
      },
      events,
    );
    events.push(
      event('ibc_transfer', {
        sender: input.sender,
        receiver: input.receiver,
        amount: token.amount,
        denom: token.denom,
        memo: input.memo,
      }),
      event('message', { module: 'transfer' }),
    );
    return packet;
  }

  /** `OnRecvPacket` of the keeper: release escrow for a returning denom, mint a voucher otherwise. */
  async function receive(
    ctx: BlockContext,
    packet: Packet,
    data: FungibleTokenPacketData,
    events: AbciEvent[],
  ) {
    if (!/^[1-9]\d*$/.test(data.amount)) {
      throw new TxError(
        'transfer',
        TRANSFER_INVALID_AMOUNT,
        `unable to parse transfer amount (${data.amount}) into math.Int: invalid amount`,
      );
    }
    if (data.receiver.trim() === '')
      throw new TxError('ibc', IBC_INVALID_ADDRESS, 'receiver address cannot be blank: invalid address');
    checkAddress(data.receiver, 'failed to decode receiver address');
    const amount = data.amount;
    if (!senderChainIsSource(packet.sourcePort, packet.sourceChannel, data.denom)) {
      const coin = { denom: receivedDenom(packet, data.denom), amount };
      await unescrow(ctx, packet.destinationPort, packet.destinationChannel, data.receiver, coin, events);
      return;
    }
    const trace = parseDenomTrace(
      `${denomPrefix(packet.destinationPort, packet.destinationChannel)}${data.denom}`,
    );
    setDenomTrace(ctx.store, trace);
    const voucher = ibcDenom(trace);
    events.push(event('denomination_trace', { trace_hash: traceHash(trace), denom: voucher }));
    await mintTo(ctx, data.receiver, { denom: voucher, amount }, events);
  }

  /** `refundPacketToken`: the sender gets back what the send escrowed or burned. */
  async function refund(
    ctx: BlockContext,
    packet: Packet,
    data: FungibleTokenPacketData,
    events: AbciEvent[],
  ) {
    const coin = { denom: ibcDenom(parseDenomTrace(data.denom)), amount: data.amount };
    if (senderChainIsSource(packet.sourcePort, packet.sourceChannel, data.denom)) {
      await unescrow(ctx, packet.sourcePort, packet.sourceChannel, data.sender, coin, events);
    } else {
      await mintTo(ctx, data.sender, coin, events);
    }
  }

  const app: IbcApp = {
    port,
    async onRecvPacket(ctx, packet, events) {
      let data: FungibleTokenPacketData | undefined;
      let failure: TxError | undefined;
      try {
        data = decodeTransferData(packet.data);
      } catch (err) {
        failure = new TxError(
          'ibc',
          12,
          `cannot unmarshal ICS-20 transfer packet data: ${(err as Error).message}: invalid type`,
        );
      }
      if (data) {
        try {
          await receive(ctx, packet, data, events);
        } catch (err) {
          if (!(err instanceof TxError)) throw err;
          failure = err;
        }
      }
      const attributes: Record<string, string> = {
        module: 'transfer',
        sender: data?.sender ?? '',
        receiver: data?.receiver ?? '',
        denom: data?.denom ?? '',
        amount: data?.amount ?? '',
        memo: data?.memo ?? '',
        success: String(failure === undefined),
      };
      if (failure) attributes.error = failure.message;
      events.push(event('fungible_token_packet', attributes), event('message', { module: 'transfer' }));
      return failure ? { ack: errorAck(failure.code), success: false } : { ack: SUCCESS_ACK, success: true };
    },
    async onAcknowledgementPacket(ctx, packet, ackBytes, events) {
      const data = decodeTransferData(packet.data);
      let ack: ReturnType<typeof parseAck>;
      try {
        ack = parseAck(ackBytes);
      } catch (err) {
        throw new TxError(
          'ibc',
          4,
          `cannot unmarshal ICS-20 transfer packet acknowledgement: ${(err as Error).message}: unknown request`,
        );
      }
      if (!ack.success) await refund(ctx, packet, data, events);
      events.push(
        event('fungible_token_packet', {
          module: 'transfer',
          sender: data.sender,
          receiver: data.receiver,
          denom: data.denom,
          amount: data.amount,
          memo: data.memo,
          acknowledgement: ack.success ? `result:"\\001" ` : `error:${JSON.stringify(ack.value)} `,
        }),
        event('message', { module: 'transfer' }),
        ack.success
          ? event('fungible_token_packet', { success: '\u0001' })
          : event('fungible_token_packet', { error: ack.value }),
      );
    },
    async onTimeoutPacket(ctx, packet, events) {
      const data = decodeTransferData(packet.data);
      await refund(ctx, packet, data, events);
      events.push(
        event('timeout', {
          module: 'transfer',
          refund_receiver: data.sender,
          refund_denom: data.denom,
          refund_amount: data.amount,
          memo: data.memo,
        }),
        event('message', { module: 'transfer' }),
      );
    },
  };
  core.bind(app);

  const send = async (ctx: BlockContext, from: string, to: string, coin: Coin, events: AbciEvent[]) => {
    await bank.send(bankCtx(ctx, events), from, to, [coin]);
  };
  return { app, port, escrowAddress, moduleAddress, transfer, funds: { send, mintTo, burnFrom, addEscrow } };
}
