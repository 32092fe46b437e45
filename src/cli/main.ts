import { errorMessage } from '../common/errors.js';

/** `weft <command> [flags]`: one binary, one sub-command per part. */
const commands: Record<string, { describe: string; run: (argv: string[]) => Promise<void> }> = {
  devnet: {
    describe: 'run a local interwoven network (rollups of VM evm, move and wasm) on loopback',
    run: async (argv) => (await import('./devnet.js')).runDevnet(argv),
  },
  indexer: {
    describe: 'follow one rollup through its nodes and write it to the store (PostgreSQL or embedded)',
    run: async (argv) => (await import('./indexer.js')).runIndexer(argv),
  },
  api: {
    describe: 'serve the read-only indexer API over the store an indexer writes',
    run: async (argv) => (await import('./api.js')).runApi(argv),
  },
  router: {
    describe: "serve the router API: routes, signable msgs and op-hooks over the registry's chains",
    run: async (argv) => (await import('./router.js')).runRouter(argv),
  },
  dashboard: {
    describe:
      'serve the dashboard (network, blocks, txs, accounts, NFTs, transfers, routes) over the public APIs',
    run: async (argv) => (await import('./dashboard.js')).runDashboard(argv),
  },
  dev: {
    describe:
      'the dev stack (`npm start`): the devnet, and an indexer and its API per rollup, on one embedded store',
    run: async (argv) => (await import('./dev.js')).runDev(argv),
  },
};

function help(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.describe}`);
  return `usage: weft <command> [--flag value ...]\n\ncommands:\n${rows.join('\n')}\n\nweft <command> --help lists a command's settings.\n`;
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stdout.write(help());
    return;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`weft: unknown command "${name}"\n\n${help()}`);
    process.exit(2);
  }
  await command.run(rest);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // Configuration errors and start-up failures end the process with one readable line.
  process.stderr.write(`weft: ${errorMessage(err)}\n`);
  process.exit(1);
});
