import { createHash } from 'node:crypto';
import { toBase64 } from '@cosmjs/encoding';
import { toBech32 } from 'weft/chain/address.js';
import type { Logger } from 'weft/common/logger.js';
import type { BlockStore } from './block-store.js';
import { blockTime, renderBlock, renderBlockResults, renderCommit, resultsHash } from './comet-json.js';
import { withMode } from './events.js';
import type {
  AccountView,
  BlockRecord,
  ChainNode,
  ChainNodeExtensions,
  CheckTxResult,
  EvmBlockRecord,
  TxRecord,
} from './node.js';
import type { Auth } from './state/auth.js';
import type { StateStore } from './state/store.js';
import { type DecodedTx, decodeTx, TxDecodeError } from './tx/codec.js';
import { txToRestJson } from './tx/tx-json.js';
import { createTxExecutor } from './tx-exec.js';
import type {
  AbciEvent,
  BankKeeper,
  BlockContext,
  BlockHooks,
  ChainInfo,
  EthTxEnvelope,
  MsgModule,
} from './types.js';

export interface SequencerKey {
  /** ed25519 consensus key. */
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  /** Uppercase hex consensus address; its valoper is the validator's operator (OPinit's launch tools). */
  address: string;
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
  const executor = createTxExecutor({
    modules: options.modules,
    store,
    auth,
    bank,
    logger,
    verifyEthereumTx: options.evm?.verifyEthereumTx,
  });
  const hooks = options.hooks ?? [];
  const maxTxs = options.maxTxsPerBlock ?? 10_000;
  const txIndex = new Map<string, { height: number; index: number }>();
  const mempool: PendingTx[] = [];
  // Next sequence per signer including txs already in the mempool (CheckTx state).
  const pendingSequences = new Map<string, bigint>();
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
    const signers = executor.signers(tx);
    store.checkpoint();
    try {
      for (const signer of signers) {
        const pending = pendingSequences.get(signer);
        const account = auth.get(store, signer);
        if (pending !== undefined && account)
          auth.put(store, signer, { ...account, sequence: String(pending) });
      }
      const result = await executor.check(ctx, tx, eth);
      if (result.code === 0) {
        for (const signer of signers) {
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
        const { result, gasUsed } = await executor.run('deliver', ctx, decoded, index, eth);
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
        for (const [i, signer] of executor.signers(decoded).entries()) {
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
          const { result, events, gasUsed } = await executor.run('simulate', ctx, tx, 0);
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
      // OPinit's launch tools make the genesis validator's operator the valoper of its consensus
      // address, so a block's proposer address names it (rollytics looks proposers up that way).
      operatorAddress: toBech32(`${info.bech32Prefix}valoper`, Buffer.from(options.sequencer.address, 'hex')),
      moniker: options.sequencer.moniker,
    }),
    produceBlock,
    mempoolSize: () => mempool.length,
    prune(belowHeight) {
      earliest = Math.max(earliest, belowHeight);
    },
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
