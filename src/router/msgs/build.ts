import { encodeFunctionData, type Hex, pad, parseAbi, toHex } from 'viem';
import { RouteRequestError } from '../errors.js';
import type { Hop } from '../graph/hops.js';
import type { ChainFacts, PlannedHop } from '../graph/plan.js';
import type { RouterRegistry } from '../registry/types.js';
import type { ChainAddress } from './addresses.js';
import { aminoMsg, type CosmosMsg } from './amino.js';
import { checkedOpHook } from './op-hook.js';

const OFT_SEND_ABI = parseAbi([
  'struct SendParam { uint32 dstEid; bytes32 to; uint256 amountLD; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; bytes oftCmd; }',
  'struct MessagingFee { uint256 nativeFee; uint256 lzTokenFee; }',
  'function send(SendParam sendParam, MessagingFee fee, address refundAddress) payable',
]);

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
 * The one transaction of a route: a `cosmos_tx` (amino JSON msgs) from Cosmos sources (the Move OFT's
 * `oft::send` a `MsgExecuteJSON`), an `evm_tx` (OFT `send` with the quoted fee as value) from EVM
 * endpoints. Addresses are those of `addressOn`.
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

  const cosmos = (msg: CosmosMsg): BuiltMsgs => ({
    txs: [
      {
        cosmos_tx: { chain_id: hop.from, path: chainIds, signer_address: sender.bech32, msgs: [msg] },
        operations_indices: planned.map((_, i) => i),
      },
    ],
    msgs: [{ multi_chain_msg: { chain_id: hop.from, path: chainIds, ...msg } }],
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
      return cosmos(
        aminoMsg('/ibc.applications.transfer.v1.MsgTransfer', {
          sourcePort: 'transfer',
          sourceChannel: hop.channel,
          token: { denom: hop.denomIn, amount: String(first.amountIn) },
          sender: sender.bech32,
          receiver: addressOn(hop.to).bech32,
          timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
          timeoutTimestamp: BigInt(startMs + options.timeoutSeconds * 1000) * 1_000_000n,
          memo: memo ? JSON.stringify(memo) : '',
        }),
      );
    }
    case 'op_deposit': {
      const to = addressOn(hop.to).bech32!;
      if (hop.hook && options.signedOpHook === undefined)
        throw new RouteRequestError(
          'Op hook is required: this route converts the deposit on arrival; sign the msgs of POST /op-hook as the recipient and send them as signed_op_hook',
        );
      const data =
        options.signedOpHook === undefined
          ? new Uint8Array()
          : checkedOpHook(options.signedOpHook, to, hop.hook);
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
    case 'op_withdraw':
      return cosmos(
        aminoMsg('/opinit.opchild.v1.MsgInitiateTokenWithdrawal', {
          sender: sender.bech32,
          to: addressOn(hop.to).bech32,
          amount: { denom: hop.denomIn, amount: String(first.amountIn) },
        }),
      );
    case 'oft': {
      const fee = await facts.omnichainFee(hop.from, hop.source.oft, hop.destination.eid);
      const to = pad(toHex(addressOn(hop.to).bytes), { size: 32 });
      const amountLD = first.amountIn;
      const minAmountLD = minimum(
        amountLD - (amountLD % 10n ** BigInt(hop.source.decimals - hop.source.sharedDecimals)),
        options.slippagePercent,
      );
      if (hop.source.kind === 'move') {
        if (!sender.bech32)
          throw new RouteRequestError(
            `chain ${source.chainId} sends OFT as a Cosmos tx: it needs a bech32 sender`,
          );
        // `oft::send(dst_eid, to, amount_ld, min_amount_ld, extra_options, compose_msg, oft_cmd, native_fee,
        // lz_token_fee)`, its arguments JSON-encoded as MsgExecuteJSON takes them.
        return cosmos(
          aminoMsg('/initia.move.v1.MsgExecuteJSON', {
            sender: sender.bech32,
            moduleAddress: hop.source.oft,
            moduleName: 'oft',
            functionName: 'send',
            typeArgs: [],
            args: [
              hop.destination.eid,
              to,
              String(amountLD),
              String(minAmountLD),
              '0x',
              '0x',
              '0x',
              String(fee),
              '0',
            ].map((arg) => JSON.stringify(arg)),
          }),
        );
      }
      if (source.evmChainId === undefined || !sender.hex)
        throw new RouteRequestError(`chain ${source.chainId} sends OFT as an EVM tx: it needs an EVM sender`);
      const sendParam = {
        dstEid: hop.destination.eid,
        to,
        amountLD,
        minAmountLD,
        extraOptions: '0x' as Hex,
        composeMsg: '0x' as Hex,
        oftCmd: '0x' as Hex,
      };
      const data = encodeFunctionData({
        abi: OFT_SEND_ABI,
        functionName: 'send',
        args: [sendParam, { nativeFee: fee, lzTokenFee: 0n }, sender.hex as Hex],
      });
      const evmTx = {
        chain_id: String(source.evmChainId),
        to: hop.source.oft,
        value: String(fee),
        data: data.slice(2),
        required_erc20_approvals: [],
        signer_address: sender.hex,
      };
      return {
        txs: [{ evm_tx: evmTx, operations_indices: planned.map((_, i) => i) }],
        msgs: [{ evm_tx: evmTx }],
        min_amount_out: minAmountOut,
      };
    }
  }
}
