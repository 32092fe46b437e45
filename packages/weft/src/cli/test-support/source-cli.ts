import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../node-flags.js';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

/**
 * The `node` arguments that run `weft <args>` from the TypeScript source, as the tests do: tsx compiles
 * on the fly and the `weft-source` export condition resolves `weft/…` and `weft-devnet/…` to the
 * packages' src/. The published bin (bin/weft.js) runs the compiled dist/, which test/pack.test.ts runs.
 */
export const sourceCli = (args: string[]): string[] => [
  ...NODE_FLAGS,
  '--conditions=weft-source',
  '--import',
  'tsx',
  MAIN,
  ...args,
];
