import { RouteRequestError } from '../errors.js';
import type { Hop } from '../graph/hops.js';
import type { ChainFacts, PlannedHop } from '../graph/plan.js';
import type { RouterRegistry } from '../registry/types.js';
import type { ChainAddress } from './addresses.js';
import { aminoMsg, type CosmosMsg } from './amino.js';
import { oftTx } from './oft.js';
import { checkedOpHook } from './op-hook.js';
import { type IbcSend, unwrapThen } from './unwrap.js';

/** How long each forwarded hop of a multi-hop IBC transfer may take before it times out (PFM `timeout`). */
const FORWARD_TIMEOUT = '10m';
const FORWARD_RETRIES = 2;

export interface MsgsOptions {
  /** Percent, 0–100 (`slippage_tolerance_percent`). */
  slippagePercent: number;
  /** IBC timeout from the destination's latest block time, or from `nowMs` (`timeout_seconds`, default 300). */
  timeoutSeconds: number;
  signedOpHook?: unknown;
  nowMs: number;
}

export interface BuiltMsgs {
  txs: Array<Record<string, unknown>>;
  msgs: Array<Record<string, unknown>>;
  min_amount_out: string;
}

/** `forward` memos of the hops after the first: each names the next chain's account and channel. */
function forwardMemo(
  hops: Hop[],
  addressOn: (chainId: string) => ChainAddress,
): Record<string, unknown> | undefined {
  let next: Record<string, unknown> | undefined;
  for (const hop of [...hops].reverse()) {
    if (hop.kind !== 'ibc') throw new RouteRequestError('only IBC hops can be forwarded');
    next = {
      forward: {
        receiver: addressOn(hop.to).bech32,
        port: 'transfer',
        channel: hop.channel,
        timeout: FORWARD_TIMEOUT,
        retries: FORWARD_RETRIES,
        ...(next ? { next } : {}),
      },
    };
  }
  return next;
}

const minimum = (amount: bigint, slippagePercent: number) =>
  (amount * BigInt(Math.round((100 - slippagePercent) * 1e6))) / 100_000_000n;

/**
 * The one transaction of a route: a `cosmos_tx` (amino JSON msgs) from Initia and other Cosmos chains
 * (an OFT send is the Move OFT's `oft::send` as a `MsgExecuteJSON`, or `MsgCall`s on a minievm rollup),
 * an `evm_tx` (OFT `send` with the quoted fee as value) only from EVM-only chains (`oft.ts`). Addresses
 * are those of `addressOn`.
 */
export async function buildMsgs(
  registry: RouterRegistry,
  facts: ChainFacts,
  planned: PlannedHop[],
  addressOn: (chainId: string) => ChainAddress,
  options: MsgsOptions,
): Promise<BuiltMsgs> {
  const first = planned[0]!;
  const hop = first.hop;
  const source = registry.chain(hop.from)!;
  const sender = addressOn(hop.from);
  const amountOut = planned.at(-1)!.amountOut;
  const chainIds = [hop.from, ...planned.map((p) => p.hop.to)];
  const minAmountOut = String(minimum(amountOut, options.slippagePercent));
  if (options.signedOpHook !== undefined && hop.kind !== 'op_deposit')
    throw new RouteRequestError('signed_op_hook is only taken by OPinit deposit routes');

  const cosmos = (...msgs: CosmosMsg[]): BuiltMsgs => ({
    txs: [
      {
        cosmos_tx: { chain_id: hop.from, path: chainIds, signer_address: sender.bech32, msgs },
        operations_indices: planned.map((_, i) => i),
      },
    ],
    msgs: msgs.map((msg) => ({ multi_chain_msg: { chain_id: hop.from, path: chainIds, ...msg } })),
    min_amount_out: minAmountOut,
  });

  switch (hop.kind) {
    case 'ibc': {
      // The destination judges the timeout by its own block time: count from it when its node says.
      const startMs = (await facts.chainTimeMs(hop.to)) ?? options.nowMs;
      const memo = forwardMemo(
        planned.slice(1).map((p) => p.hop),
        addressOn,
      );
      const send: IbcSend = {
        channel: hop.channel,
        receiver: addressOn(hop.to).bech32!,
        timeoutNs: BigInt(startMs + options.timeoutSeconds * 1000) * 1_000_000n,
        memo: memo ? JSON.stringify(memo) : '',
      };
      const transfer = (denom: string, amount: bigint) =>
        aminoMsg('/ibc.applications.transfer.v1.MsgTransfer', {
          sourcePort: 'transfer',
          sourceChannel: send.channel,
          token: { denom, amount: String(amount) },
          sender: sender.bech32,
          receiver: send.receiver,
          timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
          timeoutTimestamp: send.timeoutNs,
          memo: send.memo,
        });
      if (!hop.unwrap) return cosmos(transfer(hop.denomIn, first.amountIn));
      return cosmos(...unwrapThen(hop.unwrap, sender, hop.denomIn, first.amountIn, transfer, { ibc: send }));
    }
    case 'op_deposit': {
      const recipient = addressOn(hop.to);
      const to = recipient.bech32!;
      if (hop.hook && options.signedOpHook === undefined)
        throw new RouteRequestError(
          'Op hook is required: this route converts the deposit on arrival; sign the msgs of POST /op-hook as the recipient and send them as signed_op_hook',
        );
      const data =
        options.signedOpHook === undefined
          ? new Uint8Array()
          : checkedOpHook(
              options.signedOpHook,
              { ...recipient, bech32: to },
              registry.chain(hop.to)!.bech32Prefix,
              hop.hook,
            );
      return cosmos(
        aminoMsg('/opinit.ophost.v1.MsgInitiateTokenDeposit', {
          sender: sender.bech32,
          bridgeId: BigInt(hop.bridgeId),
          to,
          amount: { denom: hop.denomIn, amount: String(first.amountIn) },
          data,
        }),
      );
    }
    case 'op_withdraw': {
      const to = addressOn(hop.to).bech32!;
      const withdraw = (denom: string, amount: bigint) =>
        aminoMsg('/opinit.opchild.v1.MsgInitiateTokenWithdrawal', {
          sender: sender.bech32,
          to,
          amount: { denom, amount: String(amount) },
        });
      if (!hop.unwrap) return cosmos(withdraw(hop.denomIn, first.amountIn));
      return cosmos(
        ...unwrapThen(hop.unwrap, sender, hop.denomIn, first.amountIn, withdraw, { withdrawTo: to }),
      );
    }
    case 'oft': {
      const amountLD = first.amountIn;
      const dust = amountLD % 10n ** BigInt(hop.source.decimals - hop.source.sharedDecimals);
      const tx = await oftTx(facts, source, hop, {
        sender,
        recipient: addressOn(hop.to),
        amountLD,
        minAmountLD: minimum(amountLD - dust, options.slippagePercent),
      });
      if ('msgs' in tx) return cosmos(...tx.msgs);
      return {
        txs: [{ evm_tx: tx.evmTx, operations_indices: planned.map((_, i) => i) }],
        msgs: [{ evm_tx: tx.evmTx }],
        min_amount_out: minAmountOut,
      };
    }
  }
}
