import {
  MsgFinalizeTokenWithdrawal,
  MsgFinalizeTokenWithdrawalResponse,
  MsgInitiateTokenDeposit,
  MsgInitiateTokenDepositResponse,
  MsgProposeOutput,
  MsgProposeOutputResponse,
} from '@initia/opinit.proto/opinit/ophost/v1/tx.js';
import { fromBech32, toBech32 } from 'weft/chain/address.js';
import {
  bridgeAddressBytes,
  l2Denom,
  outputRoot,
  rootFromProofs,
  toHex,
  withdrawalHash,
} from 'weft/protocol/opinit.js';
import { appendMsgIndex, event } from '../events.js';
import { GasCost } from '../gas.js';
import type { Auth } from '../state/auth.js';
import type { StateStore } from '../state/store.js';
import { type BankKeeper, type BlockContext, type MsgModule, type TxContext, TxError } from '../types.js';
import { type BridgeConfig, type BridgeRecord, hostKeys, hostState, putBridge } from './host-state.js';

export const OPHOST_TYPE_URLS = {
  initiateTokenDeposit: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
  proposeOutput: '/opinit.ophost.v1.MsgProposeOutput',
  finalizeTokenWithdrawal: '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
} as const;

export interface OphostModule {
  module: MsgModule;
  /** Writes the module's params; call from the chain's genesis. */
  genesis(ctx: BlockContext): void;
  /** Registers a bridge (as MsgCreateBridge does); returns its id. */
  createBridge(store: StateStore, config: BridgeConfig): bigint;
}

const hostError = (code: number, text: string, detail?: string) =>
  new TxError('ophost', code, detail ? `${detail}: ${text}` : text);

/**
 * OPinit's host module (`x/ophost`) as the L1 runs it: deposits escrowed in the bridge account, output
 * proposals by the bridge's proposer, and withdrawals proven against a finalized output.
 */
export function createOphostModule(options: { auth: Auth; bank: BankKeeper; prefix: string }): OphostModule {
  const { auth, bank, prefix } = options;
  const bridgeAddress = (id: bigint) => toBech32(prefix, bridgeAddressBytes(id));

  const requireAddress = (address: string, field: string) => {
    try {
      if (fromBech32(address).prefix !== prefix) throw new Error('prefix');
    } catch {
      throw new TxError('sdk', 7, `invalid ${field} address: ${address}: invalid address`);
    }
  };

  const requireBridge = (ctx: TxContext, id: bigint): BridgeRecord => {
    const bridge = hostState.bridge(ctx.store, id);
    if (!bridge) throw hostError(17, 'bridge not found', `bridge ${id}`);
    return bridge;
  };

  const emit = (ctx: TxContext, type: string, attributes: Record<string, string>) =>
    ctx.events.push(...appendMsgIndex([event(type, attributes)], ctx.msgIndex));

  const initiateTokenDeposit = async (ctx: TxContext, msg: MsgInitiateTokenDeposit) => {
    requireAddress(msg.sender, 'sender');
    if (msg.to === '') throw new TxError('sdk', 7, 'empty to address: invalid address');
    const coin = msg.amount;
    if (!coin || !/^\d+$/.test(coin.amount)) throw hostError(5, 'invalid bridge amount');
    requireBridge(ctx, msg.bridgeId);
    const sequence = hostState.nextL1Sequence(ctx.store, msg.bridgeId);
    ctx.store.set(hostKeys.nextL1Sequence(msg.bridgeId), String(sequence + 1n));
    ctx.gas.consume(GasCost.bankSend, 'ophost deposit');
    if (BigInt(coin.amount) > 0n) await bank.send(ctx, msg.sender, bridgeAddress(msg.bridgeId), [coin]);
    const denom = l2Denom(msg.bridgeId, coin.denom);
    const pairKey = hostKeys.pair(msg.bridgeId, denom);
    if (ctx.store.get(pairKey) === undefined) ctx.store.set(pairKey, coin.denom);
    emit(ctx, 'initiate_token_deposit', {
      bridge_id: String(msg.bridgeId),
      l1_sequence: String(sequence),
      from: msg.sender,
      to: msg.to,
      l1_denom: coin.denom,
      l2_denom: denom,
      amount: coin.amount,
      data: toHex(msg.data),
    });
    return MsgInitiateTokenDepositResponse.encode({ sequence }).finish();
  };

  const proposeOutput = (ctx: TxContext, msg: MsgProposeOutput) => {
    if (msg.outputRoot.length !== 32) throw hostError(3, 'invalid hash length', 'output_root');
    const bridge = requireBridge(ctx, msg.bridgeId);
    if (msg.proposer !== bridge.config.proposer)
      throw new TxError('sdk', 4, 'invalid proposer: unauthorized');
    const index = hostState.nextOutputIndex(ctx.store, msg.bridgeId);
    if (index !== msg.outputIndex) {
      throw hostError(4, 'invalid output index', `expected ${index}, got ${msg.outputIndex}`);
    }
    const last = index > 1n ? hostState.output(ctx.store, msg.bridgeId, index - 1n) : undefined;
    if (last && msg.l2BlockNumber <= BigInt(last.l2BlockNumber)) {
      throw hostError(7, 'invalid l2 block number', `last ${last.l2BlockNumber}, got ${msg.l2BlockNumber}`);
    }
    ctx.store.set(hostKeys.nextOutputIndex(msg.bridgeId), String(index + 1n));
    ctx.store.set(
      hostKeys.output(msg.bridgeId, index),
      JSON.stringify({
        outputRoot: Buffer.from(msg.outputRoot).toString('base64'),
        l1BlockNumber: ctx.height,
        l1BlockTime: ctx.time,
        l1BlockTimeMs: ctx.timeMs,
        l2BlockNumber: Number(msg.l2BlockNumber),
      }),
    );
    emit(ctx, 'propose_output', {
      proposer: msg.proposer,
      bridge_id: String(msg.bridgeId),
      output_index: String(index),
      l2_block_number: String(msg.l2BlockNumber),
      output_root: toHex(msg.outputRoot),
    });
    return MsgProposeOutputResponse.encode({}).finish();
  };

  const finalizeTokenWithdrawal = async (ctx: TxContext, msg: MsgFinalizeTokenWithdrawal) => {
    requireAddress(msg.sender, 'sender');
    requireAddress(msg.to, 'receiver');
    const coin = msg.amount;
    if (!coin || !/^[1-9]\d*$/.test(coin.amount)) throw hostError(5, 'invalid bridge amount');
    const bridge = requireBridge(ctx, msg.bridgeId);
    const output = hostState.output(ctx.store, msg.bridgeId, msg.outputIndex);
    if (!output) {
      throw new TxError(
        'undefined',
        1,
        `collections: not found: key '(${msg.bridgeId}, ${msg.outputIndex})' of type (uint64, uint64)`,
      );
    }
    // ophost compares whole seconds: block time >= output time + finalization period.
    const finalizedAt = Math.floor((output.l1BlockTimeMs + bridge.config.finalizationPeriodMs) / 1000);
    if (Math.floor(ctx.timeMs / 1000) < finalizedAt) throw hostError(8, 'output has not finalized');
    if (msg.version.length !== 1 || msg.storageRoot.length !== 32 || msg.lastBlockHash.length !== 32) {
      throw hostError(3, 'invalid hash length');
    }
    const root = outputRoot(msg.version[0]!, msg.storageRoot, msg.lastBlockHash);
    if (Buffer.from(root).toString('base64') !== output.outputRoot) {
      throw hostError(10, 'failed to verify withdrawal tx', 'invalid output root');
    }
    const hash = withdrawalHash({
      bridgeId: msg.bridgeId,
      sequence: msg.sequence,
      from: msg.from,
      to: msg.to,
      denom: coin.denom,
      amount: BigInt(coin.amount),
    });
    if (hostState.claimed(ctx.store, msg.bridgeId, toHex(hash))) {
      throw hostError(11, 'withdrawal already finalized');
    }
    if (toHex(rootFromProofs(hash, msg.withdrawalProofs)) !== toHex(msg.storageRoot)) {
      throw hostError(10, 'failed to verify withdrawal tx', 'invalid storage root proofs');
    }
    ctx.store.set(hostKeys.claimed(msg.bridgeId, toHex(hash)), '1');
    ctx.gas.consume(GasCost.bankSend, 'ophost withdrawal');
    await bank.send(ctx, bridgeAddress(msg.bridgeId), msg.to, [coin]);
    emit(ctx, 'finalize_token_withdrawal', {
      bridge_id: String(msg.bridgeId),
      output_index: String(msg.outputIndex),
      l2_sequence: String(msg.sequence),
      from: msg.from,
      to: msg.to,
      l1_denom: coin.denom,
      l2_denom: l2Denom(msg.bridgeId, coin.denom),
      amount: coin.amount,
    });
    return MsgFinalizeTokenWithdrawalResponse.encode({}).finish();
  };

  const module: MsgModule = {
    name: 'ophost',
    typeUrls: Object.values(OPHOST_TYPE_URLS),
    signers(msg) {
      switch (msg.typeUrl) {
        case OPHOST_TYPE_URLS.initiateTokenDeposit:
          return [MsgInitiateTokenDeposit.decode(msg.value).sender];
        case OPHOST_TYPE_URLS.proposeOutput:
          return [MsgProposeOutput.decode(msg.value).proposer];
        default:
          return [MsgFinalizeTokenWithdrawal.decode(msg.value).sender];
      }
    },
    async execute(ctx, msg) {
      const respond = (name: string, value: Uint8Array) => ({
        typeUrl: `/opinit.ophost.v1.${name}Response`,
        value,
      });
      switch (msg.typeUrl) {
        case OPHOST_TYPE_URLS.initiateTokenDeposit:
          return respond(
            'MsgInitiateTokenDeposit',
            await initiateTokenDeposit(ctx, MsgInitiateTokenDeposit.decode(msg.value)),
          );
        case OPHOST_TYPE_URLS.proposeOutput:
          return respond('MsgProposeOutput', proposeOutput(ctx, MsgProposeOutput.decode(msg.value)));
        default:
          return respond(
            'MsgFinalizeTokenWithdrawal',
            await finalizeTokenWithdrawal(ctx, MsgFinalizeTokenWithdrawal.decode(msg.value)),
          );
      }
    },
  };

  return {
    module,
    genesis(ctx) {
      ctx.store.set(hostKeys.params, JSON.stringify({ registrationFee: [] }));
    },
    createBridge(store, config) {
      const id = BigInt(store.get(hostKeys.nextBridgeId) ?? '1');
      store.set(hostKeys.nextBridgeId, String(id + 1n));
      const bridgeAddr = bridgeAddress(id);
      auth.ensure(store, bridgeAddr);
      putBridge(store, { bridgeId: String(id), bridgeAddr, config });
      return id;
    },
  };
}
