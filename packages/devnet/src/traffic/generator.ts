import type { Logger } from 'weft/common/logger.js';
import type { Chain } from '../chain.js';
import type { DevAccount } from '../keys.js';
import type { BlockRecord } from '../node.js';
import { createRng, type Rng } from '../random.js';
import { signTx } from '../tx/sign.js';
import type { AnyMsg, Coin } from '../types.js';

/** One tx a plan wants sent: cosmos msgs signed by `signer`, or a signed Ethereum tx. */
export type PlannedTx =
  | {
      kind: 'cosmos';
      signer: DevAccount;
      msgs: AnyMsg[];
      gasLimit?: bigint;
      fee?: Coin[];
      memo?: string;
      expectFailure?: boolean;
    }
  | {
      kind: 'eth';
      signer: DevAccount;
      build: (nonce: bigint) => Promise<Uint8Array> | Uint8Array;
      expectFailure?: boolean;
    };

export interface TrafficContext {
  rng: Rng;
  chain: Chain;
  accounts: readonly DevAccount[];
  /** Height of the block the txs are meant for. */
  height: number;
}

/** A kind of traffic. `next` returns undefined when it has nothing to send right now. */
export interface TrafficPlan {
  readonly name: string;
  readonly weight: number;
  /** Its txs start interchain transfers (IBC, OPinit, omnichain): each is a source tx a router tracks. */
  readonly interchain?: boolean;
  next(ctx: TrafficContext): Promise<PlannedTx | undefined> | PlannedTx | undefined;
  /** Learns from a committed block (its events are the truth about owners, collections, ...). */
  observe?(record: BlockRecord): void;
}

export interface TrafficGenerator {
  /** Signs and submits up to `count` txs for the next block; returns how many were accepted. */
  fill(count: number): Promise<number>;
  /** Hands a committed block to every plan. */
  observe(record: BlockRecord): void;
  /** Calls `listener` with the hash of each accepted tx of an interchain plan. */
  onInterchainTx(listener: (txHash: string) => void): void;
}

export interface TrafficOptions {
  chain: Chain;
  accounts: readonly DevAccount[];
  plans: TrafficPlan[];
  seed: string;
  /** Sends signed Ethereum txs (the EVM rollup's `eth_sendRawTransaction`). */
  sendEthTx?: (raw: Uint8Array) => Promise<string>;
  defaultGasLimit?: bigint;
  logger: Logger;
}

/**
 * Keeps every block realistic: picks plans by weight with a seeded PRNG, tracks each account's
 * sequence locally (so many txs of one account fit in one block), signs and submits through CheckTx.
 */
export function createTrafficGenerator(options: TrafficOptions): TrafficGenerator {
  const { chain, accounts, plans, logger } = options;
  const rng = createRng(`${options.seed}/traffic/${chain.info.chainId}`);
  const sequences = new Map<string, bigint>();
  const weights = Object.fromEntries(plans.map((p) => [p.name, p.weight])) as Record<string, number>;
  const byName = new Map(plans.map((p) => [p.name, p]));
  const interchainListeners: Array<(txHash: string) => void> = [];

  const account = (signer: DevAccount) => {
    const view = chain.account(signer.address);
    if (!view) throw new Error(`traffic: account ${signer.address} is not funded`);
    return view;
  };

  const nextSequence = (signer: DevAccount): bigint =>
    sequences.get(signer.address) ?? account(signer).sequence;

  const gasPriceFee = (gasLimit: bigint): Coin[] => {
    const amount = BigInt(Math.ceil(chain.info.minGasPrice * Number(gasLimit)));
    return [{ denom: chain.info.denom, amount: amount.toString() }];
  };

  /** Submits `planned`; returns its hash, or undefined when the chain refused it. */
  const send = async (planned: PlannedTx): Promise<string | undefined> => {
    const sequence = nextSequence(planned.signer);
    if (planned.kind === 'eth') {
      if (!options.sendEthTx) throw new Error('traffic: this chain has no EVM JSON-RPC');
      let hash: string;
      try {
        hash = await options.sendEthTx(await planned.build(sequence));
      } catch (err) {
        logger.warn({ err: (err as Error).message, signer: planned.signer.address }, 'eth tx rejected');
        sequences.delete(planned.signer.address);
        return undefined;
      }
      sequences.set(planned.signer.address, sequence + 1n);
      return hash;
    }
    const gasLimit = planned.gasLimit ?? options.defaultGasLimit ?? 1_000_000n;
    const raw = signTx({
      msgs: planned.msgs,
      memo: planned.memo,
      fee: { amount: planned.fee ?? gasPriceFee(gasLimit), gasLimit },
      signer: planned.signer,
      chainId: chain.info.chainId,
      accountNumber: account(planned.signer).accountNumber,
      sequence,
    });
    const result = await chain.submit(raw);
    if (result.code !== 0) {
      logger.warn(
        { code: result.code, log: result.log, signer: planned.signer.address },
        'generated tx rejected',
      );
      sequences.delete(planned.signer.address);
      return undefined;
    }
    sequences.set(planned.signer.address, sequence + 1n);
    return result.hash;
  };

  return {
    observe(record) {
      for (const plan of plans) plan.observe?.(record);
    },
    onInterchainTx(listener) {
      interchainListeners.push(listener);
    },
    async fill(count) {
      // Sequences restart from the chain's view each block: txs left out of a block keep theirs.
      if (chain.mempoolSize() === 0) sequences.clear();
      const ctx: TrafficContext = { rng, chain, accounts, height: chain.latestHeight() + 1 };
      let accepted = 0;
      let attempts = 0;
      while (accepted < count && attempts < count * 4) {
        attempts += 1;
        const plan = byName.get(rng.weighted(weights))!;
        const planned = await plan.next(ctx);
        const hash = planned && (await send(planned));
        if (!hash) continue;
        accepted += 1;
        if (plan.interchain) for (const listener of interchainListeners) listener(hash);
      }
      return accepted;
    },
  };
}
