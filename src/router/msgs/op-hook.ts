import { Tx } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { RouteRequestError } from '../errors.js';

/** `signed_op_hook` of `/msgs`: a signed Cosmos tx for the destination rollup, run when the deposit lands. */
export interface SignedOpHook {
  signer: string;
  hook: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks a signed hook before it goes into the deposit's `data`: base64 of a Tx with at least one msg,
 * one signature per signer, and signed by the deposit's recipient (the hook runs as that account).
 * Returns the bytes to embed.
 */
export function checkedOpHook(input: unknown, recipient: string): Uint8Array {
  const hook = input as Partial<SignedOpHook> | null;
  if (!hook || typeof hook !== 'object' || typeof hook.hook !== 'string' || typeof hook.signer !== 'string')
    throw new RouteRequestError('signed_op_hook must be {signer, hook} with hook a base64 signed tx');
  if (hook.signer !== recipient)
    throw new RouteRequestError(
      `signed_op_hook.signer ${hook.signer} is not the deposit's recipient ${recipient}`,
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
  return bytes;
}
