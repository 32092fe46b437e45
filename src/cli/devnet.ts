import { loadSettings, usage } from '../common/config.js';
import { createLogger } from '../common/logger.js';
import { createShutdown, onProcessSignals } from '../common/shutdown.js';
import { startDevnet } from '../devnet/devnet.js';
import { configFileArgs, devnetSettings } from '../devnet/settings.js';

export async function runDevnet(argv: string[]): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(`usage: weft devnet [flags]\n\n${usage(devnetSettings)}\n`);
    return;
  }
  const settings = loadSettings(devnetSettings, {
    argv: [...configFileArgs(argv, process.env), ...argv],
    env: process.env,
  });
  const logger = createLogger({ level: settings.logLevel, format: settings.logFormat, name: 'devnet' });
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);

  const devnet = await startDevnet({
    seed: settings.seed,
    vms: settings.vms,
    blockTimeMs: settings.blockTime,
    accounts: settings.accounts,
    txsPerBlock: settings.txsPerBlock,
    stateDir: settings.stateDir || undefined,
    host: settings.host,
    portBase: settings.portBase,
    haltHeight: settings.haltHeight || undefined,
    pruneBelow: settings.pruneBelow || undefined,
    faults: {
      errorRate: settings.faultErrorRate,
      delayRate: settings.faultDelayRate,
      delayMs: settings.faultDelay,
      dropRate: settings.faultDropRate,
    },
    logger,
  });
  shutdown.add(() => devnet.close());

  for (const { chain, vm, urls } of devnet.chains) {
    process.stdout.write(
      `${chain.info.chainId.padEnd(14)} vm=${vm.padEnd(4)} height=${chain.latestHeight()} rpc=${urls.rpc} rest=${urls.rest}${urls.jsonRpc ? ` json-rpc=${urls.jsonRpc}` : ''}\n`,
    );
  }

  if (settings.fastForward > 0) {
    const report = await devnet.fastForward(settings.fastForward);
    process.stdout.write(`${JSON.stringify({ fast_forward: report })}\n`);
  }
  if (settings.manifest) {
    devnet.writeManifest(settings.manifest);
    logger.info({ path: settings.manifest }, 'manifest written');
  }
  if (settings.fastForward > 0 && settings.exitAfterFastForward) {
    await shutdown.kill('fast-forward done');
    return;
  }
  devnet.run();
  logger.info({ blockTimeMs: settings.blockTime, txsPerBlock: settings.txsPerBlock }, 'producing blocks');
}
