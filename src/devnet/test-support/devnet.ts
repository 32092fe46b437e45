import { silentLogger } from '../../common/logger.js';
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
