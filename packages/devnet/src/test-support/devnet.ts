import { silentLogger } from 'weft/common/logger.js';
import { type Devnet, type DevnetOptions, startDevnet } from '../devnet.js';

/** A devnet on loopback free ports, quiet, one block a second unless produced by hand. */
export function testDevnet(
  options: Pick<DevnetOptions, 'seed' | 'vms' | 'accounts' | 'txsPerBlock'> & Partial<DevnetOptions>,
): Promise<Devnet> {
  return startDevnet({
    blockTimeMs: 1000,
    host: '127.0.0.1',
    portBase: 0,
    logger: silentLogger(),
    ...options,
  });
}

/**
 * Produces `blocks` blocks on every chain one step at a time with a pause between steps, so that relayers
 * working over the node surfaces on their own timers (the omnichain relayer) land their txs as at a
 * block time; a fast-forward leaves them no time between blocks.
 */
export async function stepPaced(devnet: Devnet, blocks: number, pauseMs = 300): Promise<void> {
  for (let i = 0; i < blocks; i += 1) {
    await devnet.step();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/**
 * The full network with seeded interchain traffic, produced to `height`: outputs every 200 ms of wall time
 * and no finalization wait, so that claims land within the run, and the last `paced` heights stepped at a
 * pace that lets OFT packets be delivered, not only sent.
 */
export async function trafficNetwork(options: {
  seed: string;
  accounts: number;
  height: number;
  paced: number;
}): Promise<Devnet> {
  const devnet = await testDevnet({
    seed: options.seed,
    vms: ['evm', 'move', 'wasm'],
    network: 'full',
    accounts: options.accounts,
    txsPerBlock: 8,
    settings: { opinit: { outputIntervalMs: 200, finalizationPeriodMs: 0 } },
  });
  await devnet.fastForward(options.height - options.paced);
  await stepPaced(devnet, options.paced);
  return devnet;
}
