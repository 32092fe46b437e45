import { loadSettings, type SettingsOf } from 'weft/common/config.js';
import { BaseError, errorMessage } from 'weft/common/errors.js';
import { createLogger } from 'weft/common/logger.js';
import { createShutdown, onProcessSignals } from 'weft/common/shutdown.js';
import { type ProgressFigures, showCatchUp } from 'weft/indexer/progress.js';
import { devSettings } from '../dev/settings.js';
import { openDevStores } from '../dev/store.js';
import { networkPlan } from '../network/plan.js';
import { configFileArgs } from '../settings.js';

export type DevSettings = SettingsOf<typeof devSettings>;

/**
 * `weft dev` (`npm start`): the devnet (the full network by default), for each of its chains with a VM
 * (the rollups, the L1) an indexer following the chain's nodes and an API serving what it indexed, and
 * the router with its tracker over the devnet's registry, in one process. Each chain and the router
 * keep an embedded store of their own, run in a worker thread (`packages/devnet/src/dev/store.ts`).
 * The stack itself (`dev-stack.ts`) is loaded once the stores have begun to open: its modules take
 * seconds to load, on this thread, while the stores start on others.
 */
export async function runDev(argv: string[]): Promise<void> {
  const settings = loadSettings(devSettings, {
    argv: [...configFileArgs(argv, process.env), ...argv],
    env: process.env,
  });
  const log = (name: string) => createLogger({ level: settings.logLevel, format: settings.logFormat, name });
  const logger = log('dev');
  const shutdown = createShutdown(logger);
  onProcessSignals(shutdown, logger);

  // An indexer and its API follow each chain with a VM (the rollups, the L1); the external chains
  // are served but not indexed. Their stores open in their threads (on a first start, PGlite's initdb)
  // while this one loads the rest of the stack and builds the chains.
  const indexed = networkPlan(settings.network, settings.vms)
    .filter((plan) => plan.role === 'rollup' || plan.role === 'l1')
    .map((plan) => plan.chainId);
  const opening = openDevStores(settings.dataDir, indexed, logger, (store) =>
    shutdown.add(() => store.db.close()),
  );
  // Read once the devnet is up; a failure meanwhile must not count as unhandled.
  opening.catch(() => undefined);

  let indexers: Array<{ chainId: string; running: Promise<void>; figures: () => ProgressFigures }>;
  try {
    const { startStack } = await import('./dev-stack.js');
    indexers = await startStack(settings, { indexed, opening }, shutdown, logger, log);
  } catch (err) {
    // A signal during start-up: its handler stops what started and exits.
    if (shutdown.isKilled()) return;
    // Whatever started is stopped in order (the store above all) before the one-line error; every
    // store that opens is closed by the shutdown, so they are waited for first.
    await opening.catch(() => undefined);
    await shutdown.kill('start-up failed');
    throw err;
  }
  // The log level keeps the indexers' records quiet: on a terminal, one line tells how far they are.
  shutdown.add(showCatchUp(indexers.map((i) => i.figures)));

  // An indexer only stops by itself on an error it cannot retry; the stack then stops with it.
  const stopped = await Promise.race(
    indexers.map(({ chainId, running }) =>
      running.then(
        () => ({ chainId, err: undefined as unknown }),
        (err: unknown) => ({ chainId, err }),
      ),
    ),
  );
  if (shutdown.isKilled()) return;
  await shutdown.kill('an indexer stopped');
  throw new BaseError(
    'WEFT_ERR_DEV_INDEXER_STOPPED',
    `the indexer of ${stopped.chainId} stopped: ${errorMessage(stopped.err ?? 'without an error')}`,
    { cause: stopped.err },
  );
}
