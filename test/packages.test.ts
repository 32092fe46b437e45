import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Each package imports only what its package.json declares: its runtime code its `dependencies`, its
 * tests those and the workspace's dev dependencies; nothing resolves by accident through another
 * package's dependencies, and the product's runtime code never imports the devnet.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const manifest = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const workspace = manifest('package.json');

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for node's own and paths. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier))
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages each source file of `dir` imports (static and literal dynamic imports). */
function importsOf(dir: string): Array<{ file: string; pkg: string; test: boolean }> {
  const found: Array<{ file: string; pkg: string; test: boolean }> = [];
  for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|mjs)$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const test = entry.name.endsWith('.test.ts') || file.includes(`${'/'}test-support${'/'}`);
    const statics = text.matchAll(/^(?:import|export)\s[^;'"]*?\bfrom\s*'([^']+)'|^import\s*'([^']+)'/gm);
    const dynamics = text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g);
    for (const m of [...statics, ...dynamics]) {
      const pkg = packageOf((m[1] ?? m[2])!);
      if (pkg) found.push({ file: file.slice(ROOT.length), pkg, test });
    }
  }
  return found;
}

describe('package boundaries', () => {
  for (const [name, folder] of [
    ['weft', 'packages/weft'],
    ['weft-devnet', 'packages/devnet'],
  ] as const) {
    it(`${name} imports only what it declares`, () => {
      const own = manifest(`${folder}/package.json`);
      const runtime = new Set([name, ...Object.keys(own.dependencies ?? {})]);
      const forTests = new Set([
        ...runtime,
        ...Object.keys(own.devDependencies ?? {}),
        ...Object.keys(workspace.devDependencies),
      ]);
      const imports = importsOf(`${folder}/src`);
      // The scan reads imports at all: both packages serve HTTP with Fastify.
      expect(imports.some(({ pkg, test }) => pkg === 'fastify' && !test)).toBe(true);
      const undeclared = imports
        .filter(({ pkg, test }) => !(test ? forTests : runtime).has(pkg))
        .map(({ file, pkg }) => `${file}: ${pkg}`);
      expect(undeclared).toEqual([]);
    });
  }

  it("weft's runtime code declares no devnet, compiler or TypeScript loader", () => {
    const runtime = Object.keys(manifest('packages/weft/package.json').dependencies);
    for (const absent of ['weft-devnet', 'solc', 'tsx', 'typescript', '@cosmjs/stargate'])
      expect(runtime).not.toContain(absent);
    expect(runtime.filter((d) => d.startsWith('@ethereumjs/'))).toEqual([]);
  });
});
