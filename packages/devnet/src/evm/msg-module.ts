import {
  MsgCall,
  MsgCallResponse,
  MsgCreate,
  MsgCreateResponse,
} from '@initia/initia.proto/minievm/evm/v1/tx.js';
import { fromBech32, toBech32 } from 'weft/chain/address.js';
import type { Auth } from '../state/auth.js';
import { type AnyMsg, type MsgModule, type TxContext, TxError } from '../types.js';
import { EvmErrorCode, evmTxError, revertTxError } from './errors.js';
import { MSG_CALL, MSG_CREATE } from './eth-tx.js';
import { checksumAddress, executionEvents, responseLog } from './evm-events.js';
import type { AccessTuple, EvmOutcome } from './executor.js';
import { type EvmKeeper, execContextOf } from './keeper.js';

export interface EvmMsgModuleOptions {
  keeper: EvmKeeper;
  prefix: string;
  /** Couples EVM nonces with Cosmos sequences, as minievm does; without it the EVM keeps its own. */
  auth?: Auth;
  /** EVM gas of a simulated msg (minievm `contract-simulation-gas-limit`). */
  simulationGasLimit: bigint;
}

const hexBytes = (input: string): Uint8Array => {
  let message: string | undefined;
  if (input === '') message = 'empty hex string';
  else if (!/^0x/i.test(input)) message = 'hex string without 0x prefix';
  else if (input.length % 2 === 1) message = 'hex string of odd length';
  else if (!/^0x[0-9a-fA-F]*$/.test(input)) message = 'invalid hex string';
  if (message) throw new TxError('evm', 6, `${message}: Invalid hex string`);
  return Buffer.from(input.slice(2), 'hex');
};

/** `common.HexToAddress` / `HexToHash`: lenient, right-aligned, extra leading bytes dropped. */
const hexToFixed = (input: string, size: number): Uint8Array => {
  const clean = input.replace(/^0x/i, '');
  const hex = (clean.length % 2 === 1 ? `0${clean}` : clean).slice(-size * 2).padStart(size * 2, '0');
  return Buffer.from(hex, 'hex');
};

const accessListOf = (list: Array<{ address: string; storageKeys: string[] }>): AccessTuple[] =>
  list.map((t) => ({
    address: hexToFixed(t.address, 20),
    storageKeys: t.storageKeys.map((k) => hexToFixed(k, 32)),
  }));

/** `/minievm.evm.v1.MsgCall` and `/minievm.evm.v1.MsgCreate`, as minievm's msg server runs them. */
export function createEvmMsgModule(options: EvmMsgModuleOptions): MsgModule {
  const { keeper, prefix, auth } = options;
  // Txs whose first EVM msg already ran: minievm's "sequence incremented by the ante" flag is spent.
  const flagSpent = new WeakSet<TxContext>();

  const senderBytes = (sender: string): Uint8Array => {
    try {
      const { prefix: found, bytes } = fromBech32(sender);
      if (found !== prefix) throw new Error(`invalid Bech32 prefix; expected ${prefix}, got ${found}`);
      if (bytes.length !== 20)
        throw new TxError('evm', 2, 'Invalid address length: address must be 20 bytes to use EVM');
      return bytes;
    } catch (err) {
      if (err instanceof TxError) throw err;
      throw new TxError('sdk', 7, `${(err as Error).message}: invalid address`);
    }
  };

  /**
   * minievm `handleSequenceIncremented`: the ante already took a sequence for the tx. A create undoes that
   * so the EVM's nonce increment is the only one; a call after the first EVM msg takes one more.
   * Returns the nonce a create uses.
   */
  const sequenceFor = (ctx: TxContext, sender: Uint8Array, isCreate: boolean): bigint | undefined => {
    if (!auth) return undefined;
    const incremented = !flagSpent.has(ctx);
    flagSpent.add(ctx);
    const address = toBech32(prefix, sender);
    const account = auth.ensure(ctx.store, address);
    const sequence = BigInt(account.sequence);
    if (isCreate) return incremented && sequence > 0n ? sequence - 1n : sequence;
    if (!incremented) auth.put(ctx.store, address, { ...account, sequence: (sequence + 1n).toString() });
    return undefined;
  };

  const gasBalance = (ctx: TxContext) =>
    ctx.mode === 'simulate' ? options.simulationGasLimit : ctx.gas.limit - ctx.gas.used;

  const fail = (ctx: TxContext, outcome: EvmOutcome, isCreate: boolean): TxError => {
    const error = outcome.error!;
    if (error.kind === 'revert') {
      if (ctx.mode === 'deliver') keeper.noteRevert(ctx.txHash, error.data);
      return revertTxError(error.data);
    }
    if (error.kind === 'intrinsic') return new TxError('undefined', 1, error.message);
    return evmTxError(isCreate ? EvmErrorCode.evmCreateFailed : EvmErrorCode.evmCallFailed, error.message);
  };

  return {
    name: 'evm',
    typeUrls: [MSG_CALL, MSG_CREATE],
    signers(msg: AnyMsg) {
      return [
        msg.typeUrl === MSG_CALL ? MsgCall.decode(msg.value).sender : MsgCreate.decode(msg.value).sender,
      ];
    },
    async execute(ctx, msg) {
      const isCreate = msg.typeUrl === MSG_CREATE;
      const decoded = isCreate ? MsgCreate.decode(msg.value) : MsgCall.decode(msg.value);
      const sender = senderBytes(decoded.sender);
      let to: Uint8Array | undefined;
      if (!isCreate) {
        const contract = (decoded as MsgCall).contractAddr;
        to = /^(0x)?[0-9a-fA-F]{40}$/.test(contract) ? hexToFixed(contract, 20) : senderBytes(contract);
      }
      const input = isCreate ? (decoded as MsgCreate).code : (decoded as MsgCall).input;
      if (isCreate && input.length === 0) throw new TxError('sdk', 18, 'empty code bytes: invalid request');
      const data = hexBytes(input);
      const value = BigInt(decoded.value || '0');
      if (value < 0n || value >= 2n ** 256n)
        throw evmTxError(EvmErrorCode.invalidValue, 'value is out of range');
      if (!isCreate && (decoded as MsgCall).authList.length > 0) {
        throw evmTxError(
          EvmErrorCode.invalidRequest,
          'set code authorizations are not supported by the devnet',
        );
      }
      const createNonce = sequenceFor(ctx, sender, isCreate);

      const outcome = await keeper.run(execContextOf(ctx), {
        caller: sender,
        ...(to ? { to } : {}),
        data,
        value,
        gasLimit: gasBalance(ctx),
        accessList: accessListOf(decoded.accessList),
        ...(createNonce !== undefined ? { createNonce } : {}),
      });
      ctx.gas.consume(outcome.gasUsed, 'EVM gas consumption');
      if (outcome.error) throw fail(ctx, outcome, isCreate);
      if (auth && createNonce !== undefined) {
        // The creation consumed the nonce: the Cosmos sequence follows the EVM nonce.
        const address = toBech32(prefix, sender);
        const account = auth.ensure(ctx.store, address);
        const next = (createNonce + 1n).toString();
        if (account.sequence !== next) auth.put(ctx.store, address, { ...account, sequence: next });
      }

      const contract = isCreate ? outcome.createdAddress! : to!;
      ctx.events.push(
        ...executionEvents({
          kind: isCreate ? 'create' : 'call',
          contract,
          ret: outcome.returnValue,
          logs: outcome.logs,
          createdContracts: outcome.createdContracts,
          msgIndex: ctx.msgIndex,
        }),
      );
      const result = `0x${Buffer.from(outcome.returnValue).toString('hex')}`;
      const logs = outcome.logs.map(responseLog);
      return isCreate
        ? {
            typeUrl: '/minievm.evm.v1.MsgCreateResponse',
            value: MsgCreateResponse.encode({
              result,
              contractAddr: checksumAddress(contract),
              logs,
            }).finish(),
          }
        : {
            typeUrl: '/minievm.evm.v1.MsgCallResponse',
            value: MsgCallResponse.encode({ result, logs }).finish(),
          };
    },
  };
}
