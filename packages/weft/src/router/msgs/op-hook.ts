import { MsgCall } from '@initia/initia.proto/minievm/evm/v1/tx.js';
import { Tx } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { encodeFunctionData, type Hex, maxUint256, parseAbi } from 'viem';
import { addressBytes } from '../../chain/address.js';
import { RouteRequestError } from '../errors.js';
import type { DepositHook } from '../graph/hops.js';
import type { ChainFacts } from '../graph/plan.js';
import type { ChainAddress } from './addresses.js';
import { type CosmosMsg, MSG_CALL, msgCall } from './amino.js';

const HOOK_ABI = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function wrapAll() returns (uint256)',
  'function toLocal(address receiver, string remoteDenom, uint8 remoteDecimals)',
]);

/** `signed_op_hook` of `/msgs`: a signed Cosmos tx for the destination rollup, run when the deposit lands. */
export interface SignedOpHook {
  signer: string;
  hook: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why a hook's signer must be its recipient, said alike by `/op-hook` and `/msgs`: the rollup checks the
 * signer's key against each msg's sender, which is the recipient, and InterwovenKit signs the hook as the
 * connected wallet (the `source_address` of `/op-hook`).
 */
export function signerIsRecipientReason(chainId: string): string {
  return (
    `the hook runs on ${chainId} as the recipient, so only the recipient's key can sign it, ` +
    'and InterwovenKit signs it as the connected wallet (source_address): send to your own address'
  );
}

/** Whether two addresses (bech32 or 0x hex) name one account: the same bytes. */
export function sameAccount(a: string, b: Uint8Array, prefix: string): boolean {
  let bytes: Uint8Array;
  try {
    bytes = addressBytes(a, prefix);
  } catch {
    return false;
  }
  return Buffer.from(bytes).equals(Buffer.from(b));
}

/**
 * The calldata of a hook's conversion: the CoinWrapper's `wrapAll()`, or the ERC20Wrapper's
 * `toLocal(receiver, denom, decimals)`, which converts what the recipient holds of the coin and allows it.
 */
function conversionInput(hook: DepositHook, recipientHex: string): Hex {
  if (hook.kind === 'wrap') return encodeFunctionData({ abi: HOOK_ABI, functionName: 'wrapAll' });
  return encodeFunctionData({
    abi: HOOK_ABI,
    functionName: 'toLocal',
    args: [recipientHex as Hex, hook.underlying, hook.remoteDecimals],
  });
}

const conversionName = (hook: DepositHook) => (hook.kind === 'wrap' ? 'wrapAll()' : 'toLocal(…)');

/** Whether a hook tx makes the conversion its route promises, as the recipient. */
function callsConversion(tx: Tx, recipient: ChainAddress & { bech32: string }, hook: DepositHook): boolean {
  if (!recipient.hex) return false;
  const input = conversionInput(hook, recipient.hex).toLowerCase();
  return tx.body!.messages.some((any) => {
    if (any.typeUrl !== MSG_CALL) return false;
    try {
      const call = MsgCall.decode(any.value);
      return (
        call.sender === recipient.bech32 &&
        call.contractAddr.toLowerCase() === hook.wrapper.toLowerCase() &&
        call.input.toLowerCase() === input
      );
    } catch {
      return false;
    }
  });
}

/**
 * Checks a signed hook before it goes into the deposit's `data`: base64 of a Tx with at least one msg,
 * one signature per signer, and signed by the deposit's recipient (the hook runs as that account; the
 * signer may be written as bech32 or hex); for a route that converts on arrival (`converts`), one of its
 * msgs must be that conversion. Returns the bytes to embed.
 */
export function checkedOpHook(
  input: unknown,
  recipient: ChainAddress & { bech32: string },
  prefix: string,
  converts?: DepositHook,
): Uint8Array {
  const hook = input as Partial<SignedOpHook> | null;
  if (!hook || typeof hook !== 'object' || typeof hook.hook !== 'string' || typeof hook.signer !== 'string')
    throw new RouteRequestError('signed_op_hook must be {signer, hook} with hook a base64 signed tx');
  if (!sameAccount(hook.signer, recipient.bytes, prefix))
    throw new RouteRequestError(
      `signed_op_hook.signer ${JSON.stringify(hook.signer.slice(0, 100))} is not the deposit's recipient ${recipient.bech32}: ${signerIsRecipientReason(recipient.chainId)}`,
    );
  if (hook.hook.length === 0 || hook.hook.length % 4 !== 0 || !BASE64.test(hook.hook))
    throw new RouteRequestError('signed_op_hook.hook is not base64');
  const bytes = Uint8Array.from(Buffer.from(hook.hook, 'base64'));
  let tx: Tx;
  try {
    tx = Tx.decode(bytes);
  } catch {
    throw new RouteRequestError('signed_op_hook.hook is not a Cosmos tx');
  }
  if (!tx.body || tx.body.messages.length === 0)
    throw new RouteRequestError('signed_op_hook.hook carries no msg');
  const signers = tx.authInfo?.signerInfos.length ?? 0;
  if (signers === 0 || tx.signatures.length !== signers || tx.signatures.some((s) => s.length === 0))
    throw new RouteRequestError('signed_op_hook.hook is not signed');
  if (converts && !callsConversion(tx, recipient, converts))
    throw new RouteRequestError(
      `signed_op_hook.hook does not call ${conversionName(converts)} of ${converts.wrapper} as ${recipient.bech32}: sign the msgs of POST /op-hook`,
    );
  return bytes;
}

/** An allowance this large is an earlier unlimited approval: it covers any balance `wrapAll` pulls. */
const UNLIMITED = 2n ** 255n;

/**
 * The msgs of a deposit's hook (`POST /op-hook`), run on the rollup as the recipient when the deposit
 * lands: `approve` of the deposited coin's ERC20 to the wrapper if needed, then the conversion
 * (`wrapAll()`, or the ERC20Wrapper's `toLocal`). The request carries no amount and the hook is signed
 * before the deposit arrives, so an approval is unlimited (both pull exactly the caller's balance), and
 * is left out while an earlier one stands.
 */
export async function opHookMsgs(
  facts: ChainFacts,
  rollupId: string,
  hook: DepositHook,
  recipient: ChainAddress,
): Promise<CosmosMsg[]> {
  const underlying = await facts.erc20Of(rollupId, hook.underlying);
  const allowance = await facts.erc20Allowance(rollupId, underlying, recipient.hex!, hook.wrapper);
  const call = (contract: string, input: Hex) => msgCall(recipient.bech32!, contract, input);
  const approve = call(
    underlying,
    encodeFunctionData({ abi: HOOK_ABI, functionName: 'approve', args: [hook.wrapper as Hex, maxUint256] }),
  );
  const convert = call(hook.wrapper, conversionInput(hook, recipient.hex!));
  return allowance >= UNLIMITED ? [convert] : [approve, convert];
}
