/**
 * `npm run bench -- <name> [--flag value ...]`: runs one benchmark (or all of them) and prints JSON.
 * Benchmarks are not tests: they measure, and only fail when they cannot run.
 */
const benches: Record<string, () => Promise<{ run: (argv: string[]) => Promise<unknown> }>> = {
  devnet: () => import('./devnet.js'),
  evm: () => import('./evm.js'),
  follow: () => import('./follow.js'),
  ingest: () => import('./ingest.js'),
  api: () => import('./api.js'),
  store: () => import('./store.js'),
  dev: () => import('./dev.js'),
  router: () => import('./router.js'),
  'pglite-memory': () => import('./pglite-memory.js'),
  tracking: () => import('./tracking.js'),
};

const [name, ...argv] = process.argv.slice(2);
const selected = name && !name.startsWith('--') ? [name] : Object.keys(benches);
for (const bench of selected) {
  const load = benches[bench];
  if (!load) {
    process.stderr.write(`bench: unknown benchmark "${bench}" (known: ${Object.keys(benches).join(', ')})\n`);
    process.exit(2);
  }
  const result = await (await load()).run(name === bench ? argv : []);
  process.stdout.write(`${JSON.stringify({ bench, ...(result as object) }, null, 2)}\n`);
}
