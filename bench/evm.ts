import { loadSettings, parse } from 'weft/common/config.js';
import { createErc20Transfers } from 'weft-devnet/test-support/erc20-transfers.js';

/**
 * The devnet's EVM executor alone: ERC20 transfers, each with its fee paid by a bank send, run and
 * committed one after another on the EVM module over a state store (no chain, no signatures, no
 * servers). Reported: transfers/s after a warm-up.
 */
export async function run(argv: string[]) {
  const settings = loadSettings(
    {
      transfers: { flag: 'transfers', description: 'measured transfers', parse: parse.int(1), default: 2000 },
      warmup: {
        flag: 'warmup',
        description: 'transfers run before measuring',
        parse: parse.int(0),
        default: 200,
      },
    },
    { argv, env: {} },
  );
  const transfers = await createErc20Transfers();
  for (let i = 0; i < settings.warmup; i += 1) await transfers.transfer(i);
  const started = performance.now();
  for (let i = 0; i < settings.transfers; i += 1) {
    const ctx = await transfers.transfer(settings.warmup + i);
    if (ctx.events.at(-1)?.type !== 'evm')
      throw new Error(`transfer ${i} did not run: ${JSON.stringify(ctx.events)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    transfers: settings.transfers,
    seconds: Number(seconds.toFixed(2)),
    transfers_per_s: Math.round(settings.transfers / seconds),
    node: process.version,
  };
}
