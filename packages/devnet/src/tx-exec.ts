import { toBase64 } from '@cosmjs/encoding';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import type { Logger } from 'weft/common/logger.js';
import { runAnte } from './ante.js';
import { eventsJson } from './comet-json.js';
import { appendMsgIndex, event } from './events.js';
import { createGasMeter } from './gas.js';
import type { ExecTxResultJson } from './node.js';
import type { Auth } from './state/auth.js';
import type { StateStore } from './state/store.js';
import type { DecodedTx } from './tx/codec.js';
import {
  type AbciEvent,
  type AnyMsg,
  type BankKeeper,
  type BlockContext,
  type EthTxEnvelope,
  type MsgModule,
  type TxContext,
  TxError,
} from './types.js';

/**
 * One tx against a chain's state, as baseapp runs it: the ante handler (fees, sequences, signatures),
 * then each msg through its module's handler with the `message` event baseapp adds before the msg's own.
 */
export interface TxExecutor {
  /** Delivers or simulates a tx; ante effects stay even when a msg fails, as in the SDK. */
  run(
    mode: 'deliver' | 'simulate',
    block: BlockContext,
    tx: DecodedTx,
    indexInBlock: number,
    eth?: EthTxEnvelope,
  ): Promise<{ result: ExecTxResultJson; events: AbciEvent[]; gasUsed: bigint }>;
  /** CheckTx: the ante handler only, as the SDK runs it. */
  check(block: BlockContext, tx: DecodedTx, eth?: EthTxEnvelope): Promise<ExecTxResultJson>;
  /** The bech32 signers the tx's msgs require, first appearance first. */
  signers(tx: DecodedTx): string[];
}

export interface TxExecutorOptions {
  modules: MsgModule[];
  store: StateStore;
  auth: Auth;
  bank: BankKeeper;
  logger: Logger;
  /** The EVM module's check of a tx that came in as an Ethereum tx (EVM rollup only). */
  verifyEthereumTx?: (tx: DecodedTx) => boolean;
}

export function createTxExecutor(options: TxExecutorOptions): TxExecutor {
  const { store, auth, bank, logger } = options;
  const modulesByType = new Map<string, MsgModule>();
  for (const module of options.modules) for (const url of module.typeUrls) modulesByType.set(url, module);
  const verifiedSignatures = new Set<string>();
  const ante = { auth, bank, verifyEthereumTx: options.verifyEthereumTx, verifiedSignatures };

  const signers = (tx: DecodedTx): string[] => {
    const found: string[] = [];
    for (const msg of tx.body.messages) {
      const module = modulesByType.get(msg.typeUrl);
      if (!module) continue;
      for (const signer of module.signers(msg)) if (!found.includes(signer)) found.push(signer);
    }
    return found;
  };

  /** The error of a tx with a msg no module handles, if it has one. */
  const unknownMsg = (tx: DecodedTx): TxError | undefined => {
    const missing = tx.body.messages.find((msg) => !modulesByType.has(msg.typeUrl));
    if (!missing) return undefined;
    return new TxError('sdk', 2, `unable to resolve type URL ${missing.typeUrl}: tx parse error`);
  };

  const txContext = (
    mode: TxContext['mode'],
    block: BlockContext,
    tx: DecodedTx,
    index: number,
    gasLimit: bigint,
    eth?: EthTxEnvelope,
  ): TxContext => ({
    ...block,
    mode,
    txHash: tx.hash,
    txIndex: index,
    signers: [],
    gas: createGasMeter(gasLimit),
    events: [],
    msgIndex: 0,
    eth,
  });

  /** Each msg through its module, in order; the msgs' responses. */
  const executeMsgs = async (ctx: TxContext, tx: DecodedTx): Promise<AnyMsg[]> => {
    const responses: AnyMsg[] = [];
    for (const [i, msg] of tx.body.messages.entries()) {
      const module = modulesByType.get(msg.typeUrl)!;
      ctx.msgIndex = i;
      const start = ctx.events.length;
      try {
        responses.push(await module.execute(ctx, msg));
      } catch (err) {
        if (!(err instanceof TxError)) throw err;
        throw new TxError(
          err.codespace,
          err.code,
          `failed to execute message; message index: ${i}: ${err.message}`,
        );
      }
      // baseapp's createEvents: the `message` event leads the msg's events, with `module` from the
      // type URL unless a msg event already carries one.
      const msgEvents = ctx.events.splice(start);
      const hasModule = msgEvents.some((e) => e.attributes.some((a) => a.key === 'module'));
      const moduleName = msg.typeUrl.split('.')[1] ?? '';
      const attributes: Record<string, string> = { action: msg.typeUrl };
      const sender = module.signers(msg)[0];
      if (sender) attributes.sender = sender;
      if (!hasModule && moduleName) attributes.module = moduleName;
      ctx.events.push(...appendMsgIndex([event('message', attributes)], i), ...msgEvents);
    }
    return responses;
  };

  const run: TxExecutor['run'] = async (mode, block, tx, indexInBlock, eth) => {
    // The SDK simulates with an unlimited gas meter, so estimates never run out of gas.
    const gasLimit = mode === 'simulate' ? 2n ** 63n - 1n : tx.authInfo.fee.gasLimit;
    const ctx = txContext(mode, block, tx, indexInBlock, gasLimit, eth);
    ctx.router = (url) => modulesByType.get(url);
    const fail = (err: unknown, events: AbciEvent[]) => {
      const txErr =
        err instanceof TxError ? err : new TxError('undefined', 1, `internal: ${(err as Error).message}`);
      if (!(err instanceof TxError)) logger.error({ err, tx: tx.hash }, 'tx failed with an internal error');
      return {
        result: execResult(txErr.code, null, txErr.log, gasLimit, ctx.gas.used, events, txErr.codespace),
        events,
        gasUsed: ctx.gas.used,
      };
    };

    const missing = unknownMsg(tx);
    if (missing) return fail(missing, []);
    store.checkpoint();
    try {
      await runAnte(ante, ctx, tx, signers(tx));
      store.commit();
    } catch (err) {
      store.revert();
      return fail(err, []);
    }
    const anteEvents = ctx.events.splice(0);

    store.checkpoint();
    try {
      const responses = await executeMsgs(ctx, tx);
      store.commit();
      const data = TxMsgData.encode(
        TxMsgData.fromPartial({
          msgResponses: responses.map((r) => ({ typeUrl: r.typeUrl, value: r.value })),
        }),
      ).finish();
      const events = [...anteEvents, ...ctx.events];
      return {
        result: execResult(0, toBase64(data), '', gasLimit, ctx.gas.used, events, ''),
        events,
        gasUsed: ctx.gas.used,
      };
    } catch (err) {
      store.revert();
      return fail(err, anteEvents);
    }
  };

  const check: TxExecutor['check'] = async (block, tx, eth) => {
    const ctx = txContext('check', block, tx, 0, tx.authInfo.fee.gasLimit, eth);
    const { gas } = ctx;
    try {
      const missing = unknownMsg(tx);
      if (missing) throw missing;
      await runAnte(ante, ctx, tx, signers(tx));
      return execResult(0, '', '', gas.limit, gas.used, [], '');
    } catch (err) {
      if (!(err instanceof TxError)) throw err;
      return execResult(err.code, null, err.log, gas.limit, gas.used, [], err.codespace);
    }
  };

  return { run, check, signers };
}

function execResult(
  code: number,
  data: string | null,
  log: string,
  gasWanted: bigint,
  gasUsed: bigint,
  events: AbciEvent[],
  codespace: string,
): ExecTxResultJson {
  return {
    code,
    data,
    log,
    info: '',
    gas_wanted: gasWanted.toString(),
    gas_used: gasUsed.toString(),
    events: eventsJson(events),
    codespace,
  };
}
