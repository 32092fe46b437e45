import { createHash } from 'node:crypto';
import { toBase64 } from '@cosmjs/encoding';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { fromBech32, toBech32 } from 'weft/chain/address.js';
import type { Logger } from 'weft/common/logger.js';
import { runAnte } from './ante.js';
import type { BlockStore } from './block-store.js';
import {
  blockTime,
  eventsJson,
  renderBlock,
  renderBlockResults,
  renderCommit,
  resultsHash,
} from './comet-json.js';
import { appendMsgIndex, event, withMode } from './events.js';
import { createGasMeter } from './gas.js';
import type {
  AccountView,
  BlockRecord,
  ChainNode,
  ChainNodeExtensions,
  CheckTxResult,
  EvmBlockRecord,
  ExecTxResultJson,
  TxRecord,
} from './node.js';
import type { Auth } from './state/auth.js';
import type { StateStore } from './state/store.js';
import { type DecodedTx, decodeTx, TxDecodeError } from './tx/codec.js';
import { txToRestJson } from './tx/tx-json.js';
import {
  type AbciEvent,
  type AnyMsg,
  type BankKeeper,
  type BlockContext,
  type BlockHooks,
  type ChainInfo,
  type EthTxEnvelope,
  type MsgModule,
  type TxContext,
  TxError,
} from './types.js';

export interface SequencerKey {
  /** ed25519 consensus key. */
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  /** Uppercase hex consensus address. */
  address: string;
  /** bech32 account of the operator. */
  operator: string;
  moniker: string;
}

/** What the EVM module adds to a chain (EVM rollup only). */
export interface EvmHooks {
  verifyEthereumTx(tx: DecodedTx): boolean;
  /** Builds the Ethereum views of a committed block. */
  finishBlock(input: {
    ctx: BlockContext;
    blockHash: string;
    parentHash: string;
    txs: Array<{ record: TxRecord; decoded: DecodedTx; eth?: EthTxEnvelope; gasUsed: bigint }>;
  }): EvmBlockRecord;
  /** Rebuilds in-memory indexes from a stored block at start. */
  replayBlock?(record: BlockRecord): void;
}

export interface ChainOptions {
  info: ChainInfo;
  seed: string;
  genesisTimeMs: number;
  blockTimeMs: number;
  store: StateStore;
  blocks: BlockStore;
  auth: Auth;
  bank: BankKeeper;
  modules: MsgModule[];
  hooks?: BlockHooks[];
  sequencer: SequencerKey;
  /** Writes genesis state (accounts, balances, contracts) at height 0. */
  genesis: (ctx: BlockContext & { events: AbciEvent[] }) => Promise<void>;
  evm?: EvmHooks;
  extensions?: ChainNodeExtensions;
  maxTxsPerBlock?: number;
  logger: Logger;
}

export interface Chain extends ChainNode {
  /** Builds, executes and commits the next block from the mempool. */
  produceBlock(): Promise<BlockRecord>;
  /** Number of txs waiting for a block. */
  mempoolSize(): number;
  /** Heights below this are pruned: not served any more. */
  prune(belowHeight: number): void;
  /** Queues a tx that the chain built itself (eth txs come through here). */
  submit(raw: Uint8Array, eth?: EthTxEnvelope): Promise<CheckTxResult>;
}

interface PendingTx {
  decoded: DecodedTx;
  eth?: EthTxEnvelope;
}

const sha256Hex = (data: string | Uint8Array) =>
  createHash('sha256').update(data).digest('hex').toUpperCase();

export async function createChain(options: ChainOptions): Promise<Chain> {
  const { info, store, blocks, auth, bank, logger } = options;
  const modulesByType = new Map<string, MsgModule>();
  for (const module of options.modules) for (const url of module.typeUrls) modulesByType.set(url, module);
  const hooks = options.hooks ?? [];
  const maxTxs = options.maxTxsPerBlock ?? 10_000;
  const txIndex = new Map<string, { height: number; index: number }>();
  const mempool: PendingTx[] = [];
  // Next sequence per signer including txs already in the mempool (CheckTx state).
  const pendingSequences = new Map<string, bigint>();
  const verifiedSignatures = new Set<string>();
  let earliest = 1;
  let appHash = '';
  let lastBlockHash = '';
  let lastResultsHash = sha256Hex(new Uint8Array());
  let lastCommit: Record<string, unknown> = renderCommit(0, '', '', options.sequencer);

  // Every state-touching operation runs one at a time, in arrival order.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  const blockContext = (height: number): BlockContext => {
    const time = blockTime(options.genesisTimeMs, options.blockTimeMs, height, options.seed);
    return {
      chain: info,
      height,
      time: time.iso,
      timeMs: time.ms,
      proposerAddress: options.sequencer.address,
      store,
    };
  };

  const msgSigners = (tx: DecodedTx): string[] => {
    const signers: string[] = [];
    for (const msg of tx.body.messages) {
      const module = modulesByType.get(msg.typeUrl);
      if (!module) continue;
      for (const signer of module.signers(msg)) if (!signers.includes(signer)) signers.push(signer);
    }
    return signers;
  };

  const unknownMsg = (tx: DecodedTx) => tx.body.messages.find((msg) => !modulesByType.has(msg.typeUrl));

  /** Runs one tx against the store; ante effects stay even when a msg fails, as in the SDK. */
  const runTx = async (
    mode: TxContext['mode'],
    ctxBase: BlockContext,
    tx: DecodedTx,
    txIndexInBlock: number,
    eth?: EthTxEnvelope,
  ): Promise<{ result: ExecTxResultJson; events: AbciEvent[]; gasUsed: bigint }> => {
    // The SDK simulates with an unlimited gas meter, so estimates never run out of gas.
    const gasLimit = mode === 'simulate' ? 2n ** 63n - 1n : tx.authInfo.fee.gasLimit;
    const ctx: TxContext = {
      ...ctxBase,
      mode,
      txHash: tx.hash,
      txIndex: txIndexInBlock,
      signers: [],
      gas: createGasMeter(gasLimit),
      events: [],
      msgIndex: 0,
      eth,
      router: (url) => modulesByType.get(url),
    };
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
    if (missing) {
      return fail(new TxError('sdk', 2, `unable to resolve type URL ${missing.typeUrl}: tx parse error`), []);
    }
    store.checkpoint();
    try {
      await runAnte(
        { auth, bank, verifyEthereumTx: options.evm?.verifyEthereumTx, verifiedSignatures },
        ctx,
        tx,
        msgSigners(tx),
      );
      store.commit();
    } catch (err) {
      store.revert();
      return fail(err, []);
    }
    const anteEvents = ctx.events.splice(0);

    store.checkpoint();
    try {
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

  const checkTx = async (raw: Uint8Array, eth?: EthTxEnvelope): Promise<CheckTxResult> => {
    let tx: DecodedTx;
    try {
      tx = decodeTx(raw);
    } catch (err) {
      const message = err instanceof TxDecodeError ? err.message : 'tx parse error';
      return checkResult(2, 'sdk', message, sha256Hex(raw), 0n, 0n);
    }
    const ctx = blockContext(latestHeight() + 1);
    // Apply the sequences of txs already in the mempool, then throw every write away.
    store.checkpoint();
    try {
      for (const signer of msgSigners(tx)) {
        const pending = pendingSequences.get(signer);
        const account = auth.get(store, signer);
        if (pending !== undefined && account)
          auth.put(store, signer, { ...account, sequence: String(pending) });
      }
      const { result } = await runTxCheck(ctx, tx, eth);
      if (result.code === 0) {
        for (const signer of msgSigners(tx)) {
          const account = auth.get(store, signer);
          if (account) pendingSequences.set(signer, BigInt(account.sequence));
        }
      }
      return checkResult(
        result.code,
        result.codespace,
        result.log,
        tx.hash,
        tx.authInfo.fee.gasLimit,
        BigInt(result.gas_used),
      );
    } finally {
      store.revert();
    }
  };

  // CheckTx runs the ante handler only, as the SDK does.
  const runTxCheck = async (ctx: BlockContext, tx: DecodedTx, eth?: EthTxEnvelope) => {
    const missing = unknownMsg(tx);
    const gas = createGasMeter(tx.authInfo.fee.gasLimit);
    const txCtx: TxContext = {
      ...ctx,
      mode: 'check',
      txHash: tx.hash,
      txIndex: 0,
      signers: [],
      gas,
      events: [],
      msgIndex: 0,
      eth,
    };
    try {
      if (missing)
        throw new TxError('sdk', 2, `unable to resolve type URL ${missing.typeUrl}: tx parse error`);
      await runAnte(
        { auth, bank, verifyEthereumTx: options.evm?.verifyEthereumTx, verifiedSignatures },
        txCtx,
        tx,
        msgSigners(tx),
      );
      return { result: execResult(0, '', '', gas.limit, gas.used, [], '') };
    } catch (err) {
      if (!(err instanceof TxError)) throw err;
      return { result: execResult(err.code, null, err.log, gas.limit, gas.used, [], err.codespace) };
    }
  };

  const submit = (raw: Uint8Array, eth?: EthTxEnvelope) =>
    serial(async () => {
      const result = await checkTx(raw, eth);
      if (result.code === 0) mempool.push({ decoded: decodeTx(raw), eth });
      return result;
    });

  const latestHeight = () => blocks.latest;

  const produceBlock = () =>
    serial(async () => {
      const height = latestHeight() + 1;
      const ctx = blockContext(height);
      const finalizeEvents: AbciEvent[] = [];
      for (const hook of hooks) {
        if (hook.beginBlock) finalizeEvents.push(...withMode(await hook.beginBlock(ctx), 'BeginBlock'));
      }
      const pending = mempool.splice(0, maxTxs);
      pendingSequences.clear();
      // Txs left in the mempool keep their place: rebuild the pending sequences from them.
      const txs: Array<{ record: TxRecord; decoded: DecodedTx; eth?: EthTxEnvelope; gasUsed: bigint }> = [];
      for (const [index, { decoded, eth }] of pending.entries()) {
        const { result, gasUsed } = await runTx('deliver', ctx, decoded, index, eth);
        const record: TxRecord = {
          hash: decoded.hash,
          raw: toBase64(decoded.raw),
          index,
          restTx: txToRestJson(decoded),
          result,
        };
        txs.push({ record, decoded, eth, gasUsed });
      }
      for (const hook of hooks) {
        if (hook.endBlock) finalizeEvents.push(...withMode(await hook.endBlock(ctx), 'EndBlock'));
      }
      for (const { decoded } of mempool) {
        for (const [i, signer] of msgSigners(decoded).entries()) {
          const sequence = decoded.authInfo.signerInfos[i]?.sequence;
          if (sequence !== undefined) pendingSequences.set(signer, sequence + 1n);
        }
      }

      const delta = store.commitBlock(height);
      const results = txs.map((t) => t.record.result);
      const rendered = renderBlock({
        chainId: info.chainId,
        height,
        time: ctx.time,
        lastBlockHash,
        txs: txs.map((t) => t.decoded.raw),
        appHash,
        lastResultsHash,
        validatorsHash: sha256Hex(options.sequencer.publicKey),
        proposerAddress: options.sequencer.address,
        lastCommit,
      });
      const nextAppHash = sha256Hex(`${appHash}/${JSON.stringify(delta)}`);
      const record: BlockRecord = {
        height,
        block: rendered.json,
        blockResults: renderBlockResults({
          height,
          results,
          finalizeBlockEvents: finalizeEvents,
          appHash: nextAppHash,
        }),
        txs: txs.map((t) => t.record),
        delta,
        appHash: nextAppHash,
      };
      // The EVM module also sets `ethHash` on the tx records that have an Ethereum view.
      if (options.evm) {
        record.evm = options.evm.finishBlock({
          ctx,
          blockHash: rendered.hash,
          parentHash: lastBlockHash,
          txs,
        });
      }
      blocks.put(record);
      remember(record);
      logger.debug({ height, txs: txs.length }, 'block committed');
      return record;
    });

  const remember = (record: BlockRecord) => {
    for (const tx of record.txs) txIndex.set(tx.hash, { height: record.height, index: tx.index });
    appHash = record.appHash;
    lastBlockHash = (record.block.block_id as { hash: string }).hash;
    lastResultsHash = resultsHash(record.txs.map((t) => t.result));
    lastCommit = renderCommit(
      record.height,
      lastBlockHash,
      record.block.block.header.time as string,
      options.sequencer,
    );
  };

  // Genesis is deterministic, so it is rebuilt at every start; stored blocks are then replayed.
  await options.genesis({ ...blockContext(0), events: [] });
  store.commitBlock(0);
  if (blocks.latest > 0) {
    for (const record of blocks.replay()) {
      store.applyDelta(record.height, record.delta);
      remember(record);
      options.evm?.replayBlock?.(record);
    }
    logger.info({ chainId: info.chainId, height: blocks.latest }, 'state restored from the state dir');
  }

  const stateAt = (height?: number) => store.at(height ?? latestHeight());

  const accountView = (address: string, height?: number): AccountView | undefined => {
    const account = auth.get(stateAt(height), address);
    if (!account) return undefined;
    return {
      address,
      accountNumber: BigInt(account.number),
      sequence: BigInt(account.sequence),
      pubKey: account.pubKey ? { '@type': account.pubKey.typeUrl, key: account.pubKey.key } : null,
      module: account.module,
    };
  };

  return {
    info,
    ...options.extensions,
    latestHeight,
    earliestHeight: () => Math.min(earliest, Math.max(1, latestHeight())),
    getBlock: (height) => (height < earliest ? undefined : blocks.get(height)),
    findTx(hash) {
      const found = txIndex.get(hash.toUpperCase().replace(/^0X/, ''));
      return found && found.height >= earliest ? found : undefined;
    },
    broadcastTx: (raw) => submit(raw),
    submit,
    simulateTx: (raw) =>
      serial(async () => {
        const tx = decodeTx(raw);
        const ctx = blockContext(latestHeight() + 1);
        store.checkpoint();
        try {
          const { result, events, gasUsed } = await runTx('simulate', ctx, tx, 0);
          return {
            gasUsed,
            gasWanted: tx.authInfo.fee.gasLimit,
            events,
            ...(result.code === 0 ? {} : { error: result.log }),
          };
        } finally {
          store.revert();
        }
      }),
    state: stateAt,
    accounts: (height) =>
      auth
        .addresses(stateAt(height))
        .map((address) => accountView(address, height)!)
        .filter(Boolean),
    account: accountView,
    balances: async (address, height) => bank.balances(stateAt(height), address),
    validator: () => ({
      consensusAddress: options.sequencer.address,
      pubKeyBase64: toBase64(options.sequencer.publicKey),
      operatorAddress: toBech32(`${info.bech32Prefix}valoper`, fromBech32(options.sequencer.operator).bytes),
      moniker: options.sequencer.moniker,
    }),
    produceBlock,
    mempoolSize: () => mempool.length,
    prune(belowHeight) {
      earliest = Math.max(earliest, belowHeight);
    },
  };
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

function checkResult(
  code: number,
  codespace: string,
  log: string,
  hash: string,
  gasWanted: bigint,
  gasUsed: bigint,
): CheckTxResult {
  return {
    code,
    codespace,
    log,
    data: '',
    hash,
    gasWanted: gasWanted.toString(),
    gasUsed: gasUsed.toString(),
  };
}
