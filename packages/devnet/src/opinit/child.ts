import {
  MsgFinalizeTokenDeposit,
  MsgFinalizeTokenDepositResponse,
  MsgInitiateTokenWithdrawal,
  MsgInitiateTokenWithdrawalResponse,
} from '@initia/opinit.proto/opinit/opchild/v1/tx.js';
import { ResponseResultType } from '@initia/opinit.proto/opinit/opchild/v1/types.js';
import { fromBech32 } from 'weft/chain/address.js';
import { appendMsgIndex, event } from '../events.js';
import { GasCost } from '../gas.js';
import type { Auth } from '../state/auth.js';
import type { AbciEvent, BankKeeper, BlockContext, Coin, MsgModule, TxContext } from '../types.js';
import { TxError } from '../types.js';
import { runBridgeHook } from './child-hook.js';
import { type ChildBridgeInfo, childKeys, childState } from './child-state.js';

export const OPCHILD_TYPE_URLS = {
  finalizeTokenDeposit: '/opinit.opchild.v1.MsgFinalizeTokenDeposit',
  initiateTokenWithdrawal: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
} as const;

/** opchild's default `hook_max_gas`. */
export const DEFAULT_HOOK_MAX_GAS = 3_000_000n;

export interface OpchildGenesis {
  bridge: ChildBridgeInfo;
  /** Accounts allowed to finalize deposits (the executor's). */
  executors: string[];
  hookMaxGas?: bigint;
}

export interface OpchildModule {
  module: MsgModule;
  genesis(ctx: BlockContext, input: OpchildGenesis): void;
}

/**
 * OPinit's child module (`x/opchild`) as a rollup runs it: deposits finalized by the bridge executor
 * (minted as `l2/<hash>` denoms, optionally followed by a signed hook tx) and withdrawals burnt here and
 * claimed on the L1 with a proof.
 */
export function createOpchildModule(options: {
  auth: Auth;
  bank: BankKeeper;
  prefix: string;
}): OpchildModule {
  const { auth, bank, prefix } = options;
  const moduleAccount = auth.moduleAddress('opchild');

  const emit = (ctx: TxContext, type: string, attributes: Record<string, string>) =>
    ctx.events.push(...appendMsgIndex([event(type, attributes)], ctx.msgIndex));

  const isAddress = (address: string) => {
    try {
      return fromBech32(address).prefix === prefix;
    } catch {
      return false;
    }
  };

  /** Mints to the module and sends on; any failure leaves no trace (opchild's cache context). */
  const safeDeposit = async (ctx: TxContext, to: string, coin: Coin) => {
    if (!isAddress(to)) {
      return { success: false, reason: `failed to convert recipient address: decoding bech32 failed` };
    }
    if (BigInt(coin.amount) === 0n) {
      auth.ensure(ctx.store, to);
      return { success: true, reason: '' };
    }
    const events: AbciEvent[] = [];
    ctx.store.checkpoint();
    try {
      await bank.mint({ ...ctx, events }, moduleAccount, [coin]);
      await bank.send({ ...ctx, events }, moduleAccount, to, [coin]);
      ctx.store.commit();
      ctx.events.push(...events);
      return { success: true, reason: '' };
    } catch (err) {
      ctx.store.revert();
      return { success: false, reason: `failed to send coins: ${(err as Error).message}` };
    }
  };

  const withdrawalEvent = (
    ctx: TxContext,
    input: { from: string; to: string; coin: Coin; baseDenom: string; sequence: bigint },
  ) =>
    emit(ctx, 'initiate_token_withdrawal', {
      from: input.from,
      to: input.to,
      denom: input.coin.denom,
      base_denom: input.baseDenom,
      amount: input.coin.amount,
      l2_sequence: String(input.sequence),
    });

  const nextL2Sequence = (ctx: TxContext) => {
    const sequence = childState.nextL2Sequence(ctx.store);
    ctx.store.set(childKeys.nextL2Sequence, String(sequence + 1n));
    return sequence;
  };

  const finalizeTokenDeposit = async (ctx: TxContext, msg: MsgFinalizeTokenDeposit) => {
    const params = childState.params(ctx.store);
    if (!params) throw new TxError('opchild', 27, 'bridge info does not exist');
    if (!params.bridgeExecutors.includes(msg.sender)) {
      throw new TxError(
        'sdk',
        4,
        `expected included in [${params.bridgeExecutors.join(' ')}], got ${msg.sender}: unauthorized`,
      );
    }
    const coin = msg.amount;
    if (!coin || !/^\d+$/.test(coin.amount)) throw new TxError('opchild', 9, 'invalid amount');
    const next = childState.nextL1Sequence(ctx.store);
    const respond = (result: ResponseResultType) =>
      MsgFinalizeTokenDepositResponse.encode({ result }).finish();
    if (msg.sequence < next) return respond(ResponseResultType.RESPONSE_RESULT_TYPE_NOOP);
    if (msg.sequence > next) throw new TxError('opchild', 10, 'invalid sequence');

    ctx.gas.consume(GasCost.bankSend, 'opchild deposit');
    const deposit = await safeDeposit(ctx, msg.to, coin);
    ctx.store.set(childKeys.nextL1Sequence, String(next + 1n));
    const pairKey = childKeys.denomPair(coin.denom);
    if (ctx.store.get(pairKey) === undefined) ctx.store.set(pairKey, msg.baseDenom);

    const attributes: Record<string, string> = {
      l1_sequence: String(msg.sequence),
      sender: msg.from,
      recipient: msg.to,
      denom: coin.denom,
      base_denom: msg.baseDenom,
      amount: coin.amount,
      finalize_height: String(msg.height),
    };
    const hookEvents: AbciEvent[] = [];
    if (deposit.success && msg.data.length > 0) {
      const hook = await runBridgeHook(
        { auth, bank },
        { ...ctx, events: hookEvents },
        msg.data,
        BigInt(params.hookMaxGas),
      );
      attributes.success = String(hook.success);
      if (!hook.success) attributes.reason = `hook failed; ${hook.reason}`;
    } else {
      attributes.success = String(deposit.success);
      if (!deposit.success) attributes.reason = `deposit failed; ${deposit.reason}`;
    }
    ctx.events.push(...hookEvents);
    emit(ctx, 'finalize_token_deposit', attributes);

    // A failed deposit goes back to its sender on the L1 through a withdrawal.
    if (!deposit.success && BigInt(coin.amount) > 0n) {
      withdrawalEvent(ctx, {
        from: msg.to,
        to: msg.from,
        coin,
        baseDenom: msg.baseDenom,
        sequence: nextL2Sequence(ctx),
      });
    }
    return respond(ResponseResultType.RESPONSE_RESULT_TYPE_SUCCESS);
  };

  const initiateTokenWithdrawal = async (ctx: TxContext, msg: MsgInitiateTokenWithdrawal) => {
    if (!isAddress(msg.sender)) {
      throw new TxError('sdk', 7, `invalid sender address: ${msg.sender}: invalid address`);
    }
    if (msg.to === '') throw new TxError('sdk', 7, 'empty to address: invalid address');
    const coin = msg.amount;
    if (!coin || !/^[1-9]\d*$/.test(coin.amount)) throw new TxError('opchild', 9, 'invalid amount');
    const baseDenom = childState.baseDenom(ctx.store, coin.denom);
    if (baseDenom === undefined) {
      throw new TxError('undefined', 1, `collections: not found: key '${coin.denom}' of type string`);
    }
    ctx.gas.consume(GasCost.bankSend, 'opchild withdrawal');
    await bank.send(ctx, msg.sender, moduleAccount, [coin]);
    await bank.burn(ctx, moduleAccount, [coin]);
    const sequence = nextL2Sequence(ctx);
    withdrawalEvent(ctx, { from: msg.sender, to: msg.to, coin, baseDenom, sequence });
    return MsgInitiateTokenWithdrawalResponse.encode({ sequence }).finish();
  };

  const module: MsgModule = {
    name: 'opchild',
    typeUrls: Object.values(OPCHILD_TYPE_URLS),
    signers: (msg) =>
      msg.typeUrl === OPCHILD_TYPE_URLS.finalizeTokenDeposit
        ? [MsgFinalizeTokenDeposit.decode(msg.value).sender]
        : [MsgInitiateTokenWithdrawal.decode(msg.value).sender],
    async execute(ctx, msg) {
      if (msg.typeUrl === OPCHILD_TYPE_URLS.finalizeTokenDeposit) {
        return {
          typeUrl: '/opinit.opchild.v1.MsgFinalizeTokenDepositResponse',
          value: await finalizeTokenDeposit(ctx, MsgFinalizeTokenDeposit.decode(msg.value)),
        };
      }
      return {
        typeUrl: '/opinit.opchild.v1.MsgInitiateTokenWithdrawalResponse',
        value: await initiateTokenWithdrawal(ctx, MsgInitiateTokenWithdrawal.decode(msg.value)),
      };
    },
  };

  return {
    module,
    genesis(ctx, input) {
      const params = {
        bridgeExecutors: input.executors,
        hookMaxGas: String(input.hookMaxGas ?? DEFAULT_HOOK_MAX_GAS),
        admin: input.executors[0] ?? '',
      };
      ctx.store.set(childKeys.params, JSON.stringify(params));
      ctx.store.set(childKeys.bridgeInfo, JSON.stringify(input.bridge));
      auth.put(ctx.store, moduleAccount, {
        ...auth.ensure(ctx.store, moduleAccount),
        module: { name: 'opchild', permissions: ['minter', 'burner'] },
      });
    },
  };
}
