import { encodeFunctionData, type Hex, parseAbi } from 'viem';
import type { Unwrap } from '../graph/hops.js';
import type { ChainAddress } from './addresses.js';
import { type CosmosMsg, msgCall } from './amino.js';

/**
 * The msgs that take a wrapped token of a minievm rollup out of its wrapper before it leaves the chain:
 * a 1:1 wrapper's `unwrap(amount)` followed by the hop's own msg for the coin it paid out, or minievm's
 * ERC20Wrapper (`Decimal Wrapper`, x/evm/contracts/erc20_wrapper) taking the local token back (approved to
 * it first) and sending the coin itself: `toRemoteAndOPWithdraw(receiver, localDenom, localAmount)` or
 * `toRemoteAndIBCTransfer(localDenom, localAmount, channel, receiver, timeout, memo)`, whose MsgTransfer
 * or MsgInitiateTokenWithdrawal the wrapper signs through `execute_cosmos`.
 */

const WRAPPER_ABI = parseAbi([
  'function unwrap(uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function toRemoteAndOPWithdraw(string receiver, string localDenom, uint256 localAmount)',
  'function toRemoteAndIBCTransfer(string localDenom, uint256 localAmount, string channel, string receiver, uint256 timeout, string memo)',
]);

export interface IbcSend {
  channel: string;
  receiver: string;
  timeoutNs: bigint;
  /** The forward memo, or empty. */
  memo: string;
}

export function unwrapThen(
  unwrap: Unwrap,
  sender: ChainAddress,
  localDenom: string,
  amount: bigint,
  /** The hop's own msg for `denom`, sent after a 1:1 unwrap. */
  then: (denom: string, amount: bigint) => CosmosMsg,
  hop: { withdrawTo: string } | { ibc: IbcSend },
): CosmosMsg[] {
  const call = (contract: string, input: Hex) => msgCall(sender.bech32!, contract, input);
  if (unwrap.kind === 'unwrap')
    return [
      call(unwrap.wrapper, encodeFunctionData({ abi: WRAPPER_ABI, functionName: 'unwrap', args: [amount] })),
      then(unwrap.underlying, amount),
    ];
  const approve = call(
    unwrap.token,
    encodeFunctionData({ abi: WRAPPER_ABI, functionName: 'approve', args: [unwrap.wrapper as Hex, amount] }),
  );
  const convert =
    'withdrawTo' in hop
      ? encodeFunctionData({
          abi: WRAPPER_ABI,
          functionName: 'toRemoteAndOPWithdraw',
          args: [hop.withdrawTo, localDenom, amount],
        })
      : encodeFunctionData({
          abi: WRAPPER_ABI,
          functionName: 'toRemoteAndIBCTransfer',
          // The wrapper merges its callback into the memo: an empty one is the empty object.
          args: [
            localDenom,
            amount,
            hop.ibc.channel,
            hop.ibc.receiver,
            hop.ibc.timeoutNs,
            hop.ibc.memo || '{}',
          ],
        });
  return [approve, call(unwrap.wrapper, convert)];
}
