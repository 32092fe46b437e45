import { loadSettings } from 'weft/common/config.js';
import { listenOn } from 'weft/common/errors.js';
import { createLogger } from 'weft/common/logger.js';
import { createShutdown, onProcessSignals } from 'weft/common/shutdown.js';
import { startDevnet } from '../devnet.js';
import {
  chainLine,
  configFileArgs,
  devnetOptions,
  devnetSettings,
  networkLine,
  PORT_BASE,
  prepareDevnet,
} from '../settings.js';

export async function runDevnet(argv: string[]): Promise<void> {
  const settings = loadSettings(devnetSettings, {
    argv: [...configFileArgs(argv, process.env), ...argv],
    env: process.env,
  });
  const logger = createLogger({ level: settings.logLevel, format: settings.logFormat, name: 'devnet' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);

  const devnet = await listenOn(PORT_BASE, () =>
    startDevnet({
      ...devnetOptions(settings),
      pruneBelow: settings.pruneBelow || undefined,
      faults: {
        errorRate: settings.faultErrorRate,
        delayRate: settings.faultDelayRate,
        delayMs: settings.faultDelay,
        dropRate: settings.faultDropRate,
      },
      logger,
    }),
  );
  shutdown.add(() => devnet.close());

  for (const chain of devnet.all) process.stdout.write(chainLine(chain));
  process.stdout.write(networkLine(devnet));
  await prepareDevnet(devnet, settings, logger);
  if (settings.fastForward > 0 && settings.exitAfterFastForward) {
    await shutdown.kill('fast-forward done');
    return;
  }
  devnet.run();
  logger.info({ blockTimeMs: settings.blockTime, txsPerBlock: settings.txsPerBlock }, 'producing blocks');
}
