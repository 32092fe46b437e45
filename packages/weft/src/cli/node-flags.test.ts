import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEV_NODE_FLAGS, NODE_FLAGS } from './node-flags.js';

const pkg = new URL('../../', import.meta.url);
const root = new URL('../../../../', import.meta.url);

describe('node flags', () => {
  it('are the ones the bin, the npm scripts and the benches start node with', () => {
    const flags = NODE_FLAGS.join(' ');
    const shebang = readFileSync(new URL('bin/weft.js', pkg), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${flags}`);
    const { scripts } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(
      `npm run build --silent && node ${DEV_NODE_FLAGS.join(' ')} packages/weft/bin/weft.js dev`,
    );
    expect(scripts.weft).toBe(`node ${flags} packages/weft/bin/weft.js`);
    // The API bench serves from its own process: it runs as `weft api` would.
    expect(scripts.bench).toBe(
      `npm run build --silent && node ${flags} --conditions=weft-source --import tsx bench/run.ts`,
    );
  });
});
