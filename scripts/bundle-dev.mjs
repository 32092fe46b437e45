// `node ../../scripts/bundle-dev.mjs` (in packages/devnet, after tsc): bundles `weft dev`'s compiled entry
// (dist/cli/dev.js) with the modules it imports, ours and our dependencies', into dist/bundle/. Node then
// reads a few dozen files at `npm start` where it read about 2,000 (each resolved, read and compiled on its
// own), which was the largest part of a warm start's main thread.
//
// The bundle keeps what the modules rely on:
// - `import.meta.url`: each of our modules still sees its own compiled file's URL (its migrations, store
//   templates, contracts and worker entry are found beside it), resolved through the package's exports.
// - the module state the CLI shares with the command (the error classes its `instanceof` checks, the live
//   line) stays in weft's own modules, imported from the package, not copied;
// - packages that read files of their own at run time (PGlite's WebAssembly, swagger-ui's pages, pino's
//   transports, solc) or that weft loads with `require` on first use (`@initia/initia.js`, the amino
//   converters, which the devnet imports: one copy of each) stay outside.
// Lazy imports stay lazy: each `import()` of our modules becomes a chunk of its own, and a package loaded
// with `import()` stays outside.
import { readFile, rm } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const PACKAGES = fileURLToPath(new URL('../packages/', import.meta.url));
const OWN = { weft: `${PACKAGES}weft${sep}dist${sep}`, 'weft-devnet': `${PACKAGES}devnet${sep}dist${sep}` };
const SHARED = ['weft/common/errors.js', 'weft/common/progress.js'];
const EXTERNAL = [
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  '@initia/amino-converter',
  '@initia/initia.js',
  'pino',
  'solc',
];

/** The package specifier of one of our compiled files (`weft/store/migrate.js`), or undefined. */
function specifierOf(path) {
  for (const [name, dist] of Object.entries(OWN)) {
    if (path.startsWith(dist)) return `${name}/${relative(dist, path).split(sep).join('/')}`;
  }
  return undefined;
}

const ownModules = {
  name: 'own-modules',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'resolving' || args.kind === 'entry-point') return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      // What esbuild cannot resolve (an optional `require` in a try) it handles as without this plugin.
      if (resolved.errors.length > 0) return undefined;
      const specifier = specifierOf(resolved.path);
      if (specifier && SHARED.includes(specifier)) {
        return { path: specifier, external: true };
      }
      // A package loaded with `import()` is loaded by Node: a bundled CommonJS package's chunk would
      // export only its `default`, where Node gives its named exports too.
      if (!specifier && args.kind === 'dynamic-import') return { path: args.path, external: true };
      return resolved;
    });
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      const specifier = specifierOf(args.path);
      if (!specifier) return undefined;
      const text = await readFile(args.path, 'utf8');
      const contents = text.replaceAll(
        'import.meta.url',
        `import.meta.resolve(${JSON.stringify(specifier)})`,
      );
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

const OUT = `${OWN['weft-devnet']}bundle`;
// Chunks are named by their content: a former build's would stay beside the new ones.
await rm(OUT, { recursive: true, force: true });
await esbuild.build({
  entryPoints: { dev: `${OWN['weft-devnet']}cli${sep}dev.js` },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  keepNames: true,
  // Through the compiled modules' own maps, the bundle's lead to the TypeScript (without its text).
  sourcemap: 'linked',
  sourcesContent: false,
  // The CommonJS packages inside call `require` for Node's built-in modules.
  banner: {
    js: "import { createRequire as weftCreateRequire } from 'node:module';\nconst require = weftCreateRequire(import.meta.url);",
  },
  plugins: [ownModules],
  logLevel: 'warning',
});
