import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyRequire } from './lazy-require.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const loads = () => (globalThis as { weftLazyLoads?: number }).weftLazyLoads ?? 0;

describe('lazyRequire', () => {
  it('loads the module at its first call, once', () => {
    const file = join(dir, 'counted.cjs');
    writeFileSync(
      file,
      'globalThis.weftLazyLoads = (globalThis.weftLazyLoads ?? 0) + 1; module.exports = { at: globalThis.weftLazyLoads };',
    );
    const counted = lazyRequire<{ at: number }>(file, import.meta.url);
    expect(loads()).toBe(0);
    const first = counted();
    expect(loads()).toBe(1);
    expect(first.at).toBe(1);
    expect(counted()).toBe(first);
    expect(loads()).toBe(1);
  });

  it('resolves a package from the given module, and fails at the first call when it cannot', () => {
    const pg = lazyRequire<{ types: { builtins: { BYTEA: number } } }>('pg', import.meta.url);
    expect(pg().types.builtins.BYTEA).toBe(17);
    const missing = lazyRequire('weft-no-such-package', import.meta.url);
    expect(() => missing()).toThrow(/weft-no-such-package/);
  });
});
