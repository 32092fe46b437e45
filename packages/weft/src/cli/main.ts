import { BaseError, ConfigError, errorHint, errorMessage } from '../common/errors.js';
import { clearLiveLine } from '../common/progress.js';
import { type CommandInfo, commandHelp, helpWidth, overview } from './help.js';

const COMMIT_NOTE =
  'Also read: WEFT_COMMIT_HASH, the commit /status reports (unset: the git HEAD of the checkout, or unknown).';

const DEVNET_PACKAGE = 'weft-devnet';

/**
 * A module of the devnet package, which `weft devnet` and `weft dev` run on and production installs leave
 * out: its absence is one line saying how to install it. The specifier is built at run time, so the
 * product compiles without the devnet package.
 */
async function fromDevnet(command: string, path: string): Promise<any> {
  try {
    return await import(`${DEVNET_PACKAGE}/${path}`);
  } catch (err) {
    const missing =
      (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
      errorMessage(err).includes(`'${DEVNET_PACKAGE}'`);
    if (!missing) throw err;
    throw new BaseError(
      'WEFT_ERR_DEVNET_NOT_INSTALLED',
      `weft ${command} runs on the devnet package, which is not installed: npm install ${DEVNET_PACKAGE}`,
    );
  }
}

/**
 * `weft dev`'s entry: compiled, the devnet package's bundle of it (a few chunks for the ~2,000 modules
 * it loads, scripts/bundle-dev.mjs); run from the TypeScript source, as the tests do, its module.
 */
const DEV_ENTRY = import.meta.url.endsWith('.ts') ? 'cli/dev.js' : 'bundle/dev.js';

const unlessNoDevnet = (err: unknown): undefined => {
  if ((err as BaseError).code === 'WEFT_ERR_DEVNET_NOT_INSTALLED') return undefined;
  throw err;
};

/** `weft <command> [flags]`: one binary, one sub-command per part. */
const commands: Record<string, CommandInfo & { run: (argv: string[]) => Promise<void> }> = {
  devnet: {
    describe: 'run a local interwoven network (rollups of VM evm, move and wasm) on loopback',
    settings: async () => (await fromDevnet('devnet', 'settings.js')).devnetSettings,
    run: async (argv) => (await fromDevnet('devnet', 'cli/devnet.js')).runDevnet(argv),
  },
  indexer: {
    describe: 'follow one rollup through its nodes and write it to the store (PostgreSQL or embedded)',
    settings: async () => (await import('../indexer/config.js')).indexerSettings,
    run: async (argv) => (await import('./indexer.js')).runIndexer(argv),
  },
  api: {
    describe: 'serve the read-only indexer API over the store an indexer writes',
    settings: async () => (await import('../api/config.js')).apiSettings,
    notes: [COMMIT_NOTE],
    run: async (argv) => (await import('./api.js')).runApi(argv),
  },
  router: {
    describe: "serve the router API: routes, signable msgs and op-hooks over the registry's chains",
    settings: async () => (await import('../router/config.js')).routerSettings,
    run: async (argv) => (await import('./router.js')).runRouter(argv),
  },
  dashboard: {
    describe:
      'serve the dashboard (network, blocks, txs, accounts, NFTs, transfers, routes) over the public APIs',
    settings: async () => (await import('../dashboard/settings.js')).dashboardSettings,
    run: async (argv) => (await import('./dashboard.js')).runDashboard(argv),
  },
  record: {
    describe:
      'record a range of heights of a chain as `weft indexer` reads them (node answers, compressed) into a folder',
    settings: async () => (await import('../record/settings.js')).recordSettings,
    run: async (argv) => (await import('./record.js')).runRecord(argv),
  },
  replay: {
    describe: 'serve a recording (`weft replay DIR`) on the node surfaces, for `weft indexer` to run on',
    settings: async () => (await import('../record/settings.js')).replaySettings,
    run: async (argv) => (await import('./record.js')).runReplay(argv),
  },
  dev: {
    describe:
      'the dev stack (`npm start`): the devnet, an indexer and its API per chain, the router and the dashboard',
    settings: async () => (await fromDevnet('dev', 'dev/settings.js')).devSettings,
    notes: [
      'The indexers, APIs and the router of the stack take their defaults (they read none of the environment variables of `weft indexer`, `weft api` or `weft router`).',
      COMMIT_NOTE,
    ],
    run: async (argv) => (await fromDevnet('dev', DEV_ENTRY)).runDev(argv),
  },
};

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const width = helpWidth();
  if (name === 'help' && rest[0] && commands[rest[0]]) return main([rest[0], '--help']);
  if (!name || isHelp(name)) {
    const specs = Object.fromEntries(
      await Promise.all(
        // Without the devnet package, its commands are listed without their settings.
        Object.entries(commands).map(
          async ([n, c]) => [n, await c.settings?.().catch(unlessNoDevnet)] as const,
        ),
      ),
    );
    process.stdout.write(overview(commands, specs, width));
    return;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(
      `weft: unknown command "${name}"\n  hint: the commands are ${Object.keys(commands).join(', ')}; \`weft --help\` lists them\n`,
    );
    process.exit(2);
  }
  if (command.settings && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(commandHelp(name, command, await command.settings(), width));
    return;
  }
  try {
    await command.run(rest);
  } catch (err) {
    // A configuration error's hint: the command's help lists its settings.
    if (err instanceof ConfigError && !err.hint) {
      throw Object.assign(err, { hint: `\`weft ${name} --help\` lists the settings of weft ${name}` });
    }
    throw err;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // Configuration errors and start-up failures end the process with one readable line and a hint.
  clearLiveLine();
  const hint = errorHint(err);
  process.stderr.write(`weft: ${errorMessage(err)}\n${hint ? `  hint: ${hint}\n` : ''}`);
  process.exit(1);
});
