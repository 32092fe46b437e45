import { runAnte } from '../ante.js';
import { createGasMeter } from '../gas.js';
import type { Auth } from '../state/auth.js';
import { decodeTx } from '../tx/codec.js';
import type { AbciEvent, BankKeeper, MsgModule, TxContext } from '../types.js';

const MAX_REASON_LENGTH = 128;

/**
 * opchild's bridge hook: the deposit's `data` is a signed tx of the rollup. Its signatures, account
 * numbers and sequences are checked by the ante chain (without fees), then its msgs run through the
 * chain's router under a gas meter capped at `hookMaxGas`. A failure reverts the msgs (a passed ante
 * keeps its sequence increment) and is reported, never thrown: the deposit stays credited.
 */
export async function runBridgeHook(
  options: { auth: Auth; bank: BankKeeper },
  ctx: TxContext,
  data: Uint8Array,
  hookMaxGas: bigint,
): Promise<{ success: boolean; reason: string }> {
  if (hookMaxGas === 0n) return { success: false, reason: 'hook max gas is zero' };
  const remaining = ctx.gas.limit - ctx.gas.used;
  const gas = createGasMeter(remaining < hookMaxGas ? remaining : hookMaxGas);
  const events: AbciEvent[] = [];
  const hookCtx: TxContext = { ...ctx, gas, events, signers: [] };
  const router = ctx.router ?? (() => undefined);
  let result: { success: boolean; reason: string };
  try {
    result = await runHookTx(options, hookCtx, data, router);
  } catch (err) {
    result = { success: false, reason: `panic: ${(err as Error).message}` };
  }
  ctx.events.push(...events);
  ctx.gas.consume(gas.used < gas.limit ? gas.used : gas.limit, 'bridge hook');
  const { reason } = result;
  return {
    success: result.success,
    reason: reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}...` : reason,
  };
}

async function runHookTx(
  options: { auth: Auth; bank: BankKeeper },
  ctx: TxContext,
  data: Uint8Array,
  router: (typeUrl: string) => MsgModule | undefined,
): Promise<{ success: boolean; reason: string }> {
  let tx: ReturnType<typeof decodeTx>;
  try {
    tx = decodeTx(data);
  } catch (err) {
    return { success: false, reason: `Failed to decode tx: ${(err as Error).message}` };
  }
  const signers: string[] = [];
  for (const msg of tx.body.messages) {
    const module = router(msg.typeUrl);
    if (!module) return { success: false, reason: `Unrecognized Msg type: ${msg.typeUrl}` };
    for (const signer of module.signers(msg)) if (!signers.includes(signer)) signers.push(signer);
  }
  const { store } = ctx;
  store.checkpoint();
  try {
    await runAnte({ auth: options.auth, bank: options.bank }, ctx, tx, signers);
    store.commit();
  } catch (err) {
    store.revert();
    return { success: false, reason: `Failed to run AnteHandler: ${(err as Error).message}` };
  }
  // The ante's events stay with the deposit; the msgs' events only when every msg succeeds.
  const start = ctx.events.length;
  store.checkpoint();
  try {
    for (const msg of tx.body.messages) await router(msg.typeUrl)!.execute(ctx, msg);
    store.commit();
    return { success: true, reason: '' };
  } catch (err) {
    store.revert();
    ctx.events.splice(start);
    return { success: false, reason: `Failed to execute Msg: ${(err as Error).message}` };
  }
}
