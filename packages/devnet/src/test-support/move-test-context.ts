import type { StateStore } from '../state/store.js';
import type { ChainInfo, GasMeter, MsgModule, TxContext } from '../types.js';

/**
 * A `TxContext` for running a module on its own, as the chain would for one msg of one tx, and a runner that
 * keeps the tx's writes only when it succeeds. Used by the module tests of move, wasm and ibc.
 */
export function testTxContext(
  store: StateStore,
  chain: Partial<ChainInfo> & { vm: ChainInfo['vm'] },
  options: { height?: number; signers?: string[]; msgIndex?: number; txHash?: string } = {},
): TxContext {
  const height = options.height ?? store.height + 1;
  const timeMs = Date.UTC(2026, 0, 1) + height * 1000;
  let used = 0n;
  const gas: GasMeter = {
    limit: 10_000_000n,
    get used() {
      return used;
    },
    consume(amount) {
      used += amount;
    },
  };
  return {
    chain: { chainId: `mini${chain.vm}-1`, bech32Prefix: 'init', denom: 'umin', minGasPrice: 0, ...chain },
    height,
    time: new Date(timeMs).toISOString().replace('Z', '000000Z'),
    timeMs,
    proposerAddress: '00'.repeat(20).toUpperCase(),
    store,
    mode: 'deliver',
    txHash: options.txHash ?? 'AB'.repeat(32),
    txIndex: 0,
    signers: options.signers ?? [],
    gas,
    events: [],
    msgIndex: options.msgIndex ?? 0,
  };
}

/** Runs one msg in its own checkpoint, reverting its writes when it fails. */
export async function runMsg(module: MsgModule, ctx: TxContext, msg: { typeUrl: string; value: Uint8Array }) {
  ctx.store.checkpoint();
  try {
    const response = await module.execute(ctx, msg);
    ctx.store.commit();
    return response;
  } catch (err) {
    ctx.store.revert();
    throw err;
  }
}
