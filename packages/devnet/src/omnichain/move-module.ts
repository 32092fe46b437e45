import { MsgExecuteJSONResponse, MsgExecuteResponse } from '@initia/initia.proto/initia/move/v1/tx.js';
import { bytesToHex, type Hex } from 'viem';
import { fromBech32 } from 'weft/chain/address.js';
import { decodeAny } from 'weft/chain/registry.js';
import { moveDenom } from 'weft/protocol/move-denom.js';
import {
  decodeOftMessage,
  encodeOftMessage,
  encodePacket,
  packetGuid,
  payloadHash,
} from 'weft/protocol/omnichain.js';
import { appendMsgIndex, event } from '../events.js';
import type { DevAccount, KeyType } from '../keys.js';
import {
  canonicalHex,
  createObjectAddress,
  moveToAccAddress,
  padMoveAddress,
  parseMoveAddress,
  vmAddressString,
} from '../move/address.js';
import { executeEvent } from '../move/events.js';
import { MSG_EXECUTE, MSG_EXECUTE_JSON } from '../move/module.js';
import { MoveVmError } from '../move/session.js';
import type { MoveNode, MoveViewCall } from '../node.js';
import type { Auth } from '../state/auth.js';
import type { StateReader, StateStore } from '../state/store.js';
import {
  type AbciEvent,
  type BankKeeper,
  type BlockContext,
  type MsgModule,
  type TxContext,
  TxError,
} from '../types.js';
import { decodeOmniArgs, type OmniArg, type OmniParam } from './move-args.js';
import { bare, isPaused, nextOutboundNonce, omniKeys, peerOfEid } from './move-state.js';
import {
  GENESIS_OFT_SD,
  MOVE_FEES,
  MOVE_PACKAGE,
  OFT_SYMBOL,
  type OmnichainSetup,
  omnichainOperator,
  peerOf,
} from './network.js';

/** The L1's OFT denom: a Move fungible asset's `move/<metadata address>` form. */
export const OMNI_MOVE_DENOM = moveDenom(
  createObjectAddress(MOVE_PACKAGE, new TextEncoder().encode(OFT_SYMBOL)),
);
const PACKAGE_HEX = `0x${canonicalHex(MOVE_PACKAGE)}`;
const OFT_MESSAGE_BYTES = 40n;
const BASE_GAS = 40_000n;

/** Abort codes, as the Move package would raise them (`error::invalid_argument` and friends). */
const Abort = {
  paused: 0x30001,
  noPeer: 0x10002,
  slippage: 0x10003,
  insufficientFee: 0x10004,
  lzToken: 0x10005,
  unauthorized: 0x50006,
  payloadHash: 0x10007,
  alreadyDelivered: 0x10008,
  onlyPeer: 0x10009,
  badReceiver: 0x1000a,
} as const;

class OmniAbort extends Error {
  constructor(module: string, code: number) {
    super(`VM aborted: location=${canonicalHex(MOVE_PACKAGE)}::${module}, code=${code}`);
  }
}

const ENTRY: Record<string, readonly OmniParam[]> = {
  'oft::send': ['u32', 'vector<u8>', 'u64', 'u64', 'vector<u8>', 'vector<u8>', 'vector<u8>', 'u64', 'u64'],
  'oft::set_paused': ['bool'],
  'oft::set_peer': ['u32', 'vector<u8>'],
  'endpoint::verify': ['u32', 'vector<u8>', 'u64', 'address', 'vector<u8>'],
  'endpoint::lz_receive': ['u32', 'vector<u8>', 'u64', 'address', 'vector<u8>', 'vector<u8>', 'vector<u8>'],
};

const QUOTE_SEND: readonly OmniParam[] = [...ENTRY['oft::send']!.slice(0, 7), 'bool'];

/** Whether a module address (hex or bech32) is the omnichain package's. */
function isPackage(address: string, prefix: string): boolean {
  try {
    return canonicalHex(parseMoveAddress(address, prefix)) === canonicalHex(MOVE_PACKAGE);
  } catch {
    return false;
  }
}

export interface OmnichainMoveOptions {
  setup: OmnichainSetup;
  prefix: string;
  /** The chain's fee denom: messaging fees are paid in it. */
  feeDenom: string;
  keyType: KeyType;
  bank: BankKeeper;
  auth: Auth;
  /** The chain's state: views read committed heights from it. */
  store: StateStore;
}

export interface OmnichainMove {
  readonly denom: string;
  readonly operator: DevAccount;
  /** The module account that collects fees and burns sent tokens. */
  readonly moduleAccount: string;
  /** The Move node with the package's views (`oft::quote_send`) before `inner`'s. */
  node(inner?: MoveNode): MoveNode;
  /** `MsgExecute`/`MsgExecuteJSON`: calls into the omnichain package here, everything else to `inner`. */
  wrap(inner: MsgModule): MsgModule;
  /** Sets peers, funds the operator with the fee denom and each holder with OFT. */
  genesis(ctx: BlockContext & { events: AbciEvent[] }, holders: readonly DevAccount[]): Promise<void>;
}

const hex = (bytes: Uint8Array): Hex => bytesToHex(bytes);

/**
 * The omnichain endpoint and OFT of a Move chain, simulated as a Move package would run them, with the
 * EVM contracts' events as Cosmos events of the same names and fields (origin flattened into `srcEid`,
 * `sender`, `nonce`; bytes as `0x` hex; accounts as bech32).
 */
export function createOmnichainMove(options: OmnichainMoveOptions): OmnichainMove {
  const { setup, prefix, bank, auth, feeDenom, store } = options;
  const operator = omnichainOperator(setup.seed, options.keyType, prefix);
  const moduleAccount = auth.moduleAddress('omnichain');
  const denom = OMNI_MOVE_DENOM;

  /** The checks and native fee of one send: `send` charges it, the `quote_send` view answers it. */
  function sendFee(
    state: StateReader,
    dstEid: number,
    to: Uint8Array,
    amountLD: bigint,
    minAmountLD: bigint,
  ) {
    if (isPaused(state)) throw new OmniAbort('oft', Abort.paused);
    if (!peerOfEid(state, dstEid)) throw new OmniAbort('oft', Abort.noPeer);
    if (to.length !== 32) throw new OmniAbort('oft', Abort.badReceiver);
    if (amountLD < minAmountLD) throw new OmniAbort('oft', Abort.slippage);
    return MOVE_FEES.base + MOVE_FEES.perByte * OFT_MESSAGE_BYTES;
  }

  const accountOf = (bytes32: Uint8Array) => moveToAccAddress(bytes32, prefix);
  const coin = (d: string, amount: bigint) => [{ denom: d, amount: amount.toString() }];

  async function send(ctx: TxContext, sender: string, a: OmniArg[], out: AbciEvent[]) {
    const [dstEid, to, amountLD, minAmountLD, options_, , , nativeFee, lzTokenFee] = a as [
      number,
      Uint8Array,
      bigint,
      bigint,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      bigint,
      bigint,
    ];
    const fee = sendFee(ctx.store, dstEid, to, amountLD, minAmountLD);
    const peer = peerOfEid(ctx.store, dstEid)!;
    if (lzTokenFee !== 0n) throw new OmniAbort('endpoint', Abort.lzToken);
    if (nativeFee < fee) throw new OmniAbort('endpoint', Abort.insufficientFee);
    const bankCtx = { ...ctx, events: out };
    await bank.send(bankCtx, sender, moduleAccount, coin(feeDenom, fee));
    await bank.send(bankCtx, sender, moduleAccount, coin(denom, amountLD));
    await bank.burn!(bankCtx, moduleAccount, coin(denom, amountLD));
    const header = {
      nonce: nextOutboundNonce(ctx.store, dstEid, peer),
      srcEid: setup.self.eid,
      sender: PACKAGE_HEX as Hex,
      dstEid,
      receiver: `0x${peer}` as Hex,
    };
    const guid = packetGuid(header);
    const message = encodeOftMessage(hex(to), amountLD);
    out.push(
      event('PacketSent', {
        encodedPayload: encodePacket({ ...header, guid, message }),
        options: hex(options_),
        sendLibrary: PACKAGE_HEX,
      }),
      event('OFTSent', {
        guid,
        dstEid: String(dstEid),
        fromAddress: sender,
        amountSentLD: amountLD.toString(),
        amountReceivedLD: amountLD.toString(),
      }),
    );
  }

  function verify(ctx: TxContext, signer: string, a: OmniArg[], out: AbciEvent[]) {
    const [srcEid, sender, nonce, receiver, hash] = a as [number, Uint8Array, bigint, Uint8Array, Uint8Array];
    if (signer !== operator.address) throw new OmniAbort('endpoint', Abort.unauthorized);
    if (canonicalHex(receiver) !== canonicalHex(MOVE_PACKAGE))
      throw new OmniAbort('endpoint', Abort.badReceiver);
    if (hash.length !== 32 || hash.every((b) => b === 0)) throw new OmniAbort('endpoint', Abort.payloadHash);
    if (ctx.store.get(omniKeys.delivered(srcEid, bare(sender), nonce)))
      throw new OmniAbort('endpoint', Abort.alreadyDelivered);
    ctx.store.set(omniKeys.inbound(srcEid, bare(sender), nonce), bare(hash));
    out.push(
      event('PacketVerified', {
        srcEid: String(srcEid),
        sender: hex(sender),
        nonce: nonce.toString(),
        receiver: PACKAGE_HEX,
        payloadHash: hex(hash),
      }),
    );
  }

  async function lzReceive(ctx: TxContext, signer: string, a: OmniArg[], out: AbciEvent[]) {
    const [srcEid, sender, nonce, receiver, guid, message, extraData] = a as [
      number,
      Uint8Array,
      bigint,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    if (signer !== operator.address) throw new OmniAbort('endpoint', Abort.unauthorized);
    if (canonicalHex(receiver) !== canonicalHex(MOVE_PACKAGE))
      throw new OmniAbort('endpoint', Abort.badReceiver);
    const key = omniKeys.inbound(srcEid, bare(sender), nonce);
    const expected = ctx.store.get(key);
    if (!expected || expected !== bare(payloadHash({ guid: hex(guid), message: hex(message) })))
      throw new OmniAbort('endpoint', Abort.payloadHash);
    const origin = { srcEid: String(srcEid), sender: hex(sender), nonce: nonce.toString() };
    const received: AbciEvent[] = [];
    ctx.store.checkpoint();
    try {
      if (peerOfEid(ctx.store, srcEid) !== bare(sender)) throw new OmniAbort('oft', Abort.onlyPeer);
      if (isPaused(ctx.store)) throw new OmniAbort('oft', Abort.paused);
      const { to, amountSD } = decodeOftMessage(hex(message));
      const recipient = accountOf(Uint8Array.from(Buffer.from(to.slice(2), 'hex')));
      await bank.mint({ ...ctx, events: received }, recipient, coin(denom, amountSD));
      received.push(
        event('OFTReceived', {
          guid: hex(guid),
          srcEid: String(srcEid),
          toAddress: recipient,
          amountReceivedLD: amountSD.toString(),
        }),
      );
      ctx.store.set(key, undefined);
      ctx.store.set(omniKeys.delivered(srcEid, bare(sender), nonce), '1');
      ctx.store.commit();
      out.push(...received, event('PacketDelivered', { ...origin, receiver: PACKAGE_HEX }));
    } catch (err) {
      ctx.store.revert();
      out.push(
        event('LzReceiveAlert', {
          receiver: PACKAGE_HEX,
          executor: signer,
          ...origin,
          guid: hex(guid),
          gas: ctx.gas.limit > ctx.gas.used ? (ctx.gas.limit - ctx.gas.used).toString() : '0',
          value: '0',
          message: hex(message),
          extraData: hex(extraData),
          reason: (err as Error).message,
        }),
      );
    }
  }

  function admin(ctx: TxContext, signer: string, name: string, a: OmniArg[]) {
    if (signer !== operator.address) throw new OmniAbort('oft', Abort.unauthorized);
    if (name === 'set_paused') ctx.store.set(omniKeys.paused, a[0] ? '1' : undefined);
    else ctx.store.set(omniKeys.peer(a[0] as number), bare(a[1] as Uint8Array));
  }

  /**
   * `#[view] oft::quote_send(dst_eid, to, amount_ld, min_amount_ld, extra_options, compose_msg, oft_cmd,
   * pay_in_zro): (u64, u64)`, the native and LayerZero-token fees of that send.
   */
  function view(call: MoveViewCall, state: StateReader): string {
    if (`${call.moduleName}::${call.functionName}` !== 'oft::quote_send')
      throw new MoveVmError('FUNCTION_RESOLUTION_FAILURE');
    if (call.typeArgs.length !== 0) throw new MoveVmError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH');
    const [dstEid, to, amountLD, minAmountLD, , , , payInZro] = decodeOmniArgs(QUOTE_SEND, call.args) as [
      number,
      Uint8Array,
      bigint,
      bigint,
      ...unknown[],
    ];
    const fee = sendFee(state, dstEid, to, amountLD, minAmountLD);
    if (payInZro === true) throw new OmniAbort('endpoint', Abort.lzToken);
    return JSON.stringify([fee.toString(), '0']);
  }

  const run = async (ctx: TxContext, signer: string, fn: string, args: Array<Uint8Array | string>) => {
    const params = ENTRY[fn];
    if (!params) throw new MoveVmError('FUNCTION_RESOLUTION_FAILURE');
    const a = decodeOmniArgs(params, args);
    const out: AbciEvent[] = [];
    if (fn === 'oft::send') await send(ctx, signer, a, out);
    else if (fn === 'endpoint::verify') verify(ctx, signer, a, out);
    else if (fn === 'endpoint::lz_receive') await lzReceive(ctx, signer, a, out);
    else admin(ctx, signer, fn.split('::')[1]!, a);
    return out;
  };

  return {
    denom,
    operator,
    moduleAccount,
    node(inner) {
      return {
        resource: (address, structTag, height) => inner?.resource(address, structTag, height),
        view(call, height) {
          if (!isPackage(call.address, prefix)) {
            if (!inner?.view) throw new MoveVmError('LINKER_ERROR');
            return inner.view(call, height);
          }
          return view(call, store.at(height ?? store.height));
        },
      };
    },
    wrap(inner) {
      return {
        name: inner.name,
        typeUrls: [...new Set([...inner.typeUrls, MSG_EXECUTE, MSG_EXECUTE_JSON])],
        signers: inner.signers,
        async execute(ctx, msg) {
          const m = decodeAny(msg);
          if (!isPackage(m.moduleAddress, prefix)) return inner.execute(ctx, msg);
          const sender = m.sender as string;
          const fn = `${m.moduleName}::${m.functionName}`;
          if ((m.typeArgs as string[]).length !== 0)
            throw new TxError('undefined', 1, new MoveVmError('NUMBER_OF_TYPE_ARGUMENTS_MISMATCH').message);
          ctx.store.checkpoint();
          let events: AbciEvent[];
          try {
            events = await run(ctx, sender, fn, m.args);
          } catch (err) {
            ctx.store.revert();
            ctx.gas.consume(BASE_GAS, 'move runtime');
            if (err instanceof OmniAbort || err instanceof MoveVmError)
              throw new TxError('undefined', 1, err.message);
            throw err;
          }
          ctx.store.commit();
          ctx.gas.consume(BASE_GAS, 'move runtime');
          ctx.events.push(
            ...appendMsgIndex(
              [
                executeEvent({
                  sender: vmAddressString(padMoveAddress(fromBech32(sender).bytes)),
                  moduleAddr: PACKAGE_HEX,
                  moduleName: m.moduleName,
                  functionName: m.functionName,
                }),
                ...events,
              ],
              ctx.msgIndex,
            ),
          );
          return responseOf(msg.typeUrl);
        },
      };
    },
    async genesis(ctx, holders) {
      for (const member of setup.members) {
        if (member.eid === setup.self.eid) continue;
        ctx.store.set(omniKeys.peer(member.eid), bare(peerOf(member, setup.seed)));
      }
      auth.ensure(ctx.store, operator.address);
      auth.put(ctx.store, moduleAccount, {
        ...auth.ensure(ctx.store, moduleAccount),
        module: { name: 'omnichain', permissions: ['burner'] },
      });
      await bank.mint(ctx, operator.address, coin(feeDenom, 10n ** 15n));
      for (const holder of holders) await bank.mint(ctx, holder.address, coin(denom, GENESIS_OFT_SD));
    },
  };
}

function responseOf(typeUrl: string) {
  return typeUrl === MSG_EXECUTE
    ? { typeUrl: '/initia.move.v1.MsgExecuteResponse', value: MsgExecuteResponse.encode({}).finish() }
    : {
        typeUrl: '/initia.move.v1.MsgExecuteJSONResponse',
        value: MsgExecuteJSONResponse.encode({}).finish(),
      };
}
