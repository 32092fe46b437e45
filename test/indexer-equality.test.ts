import { afterAll, beforeAll, describe } from 'vitest';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet } from 'weft-devnet/devnet.js';
import type { VmType } from 'weft-devnet/types.js';
import { type IndexedChain, indexChain, itEqualsTheDevnet } from './equality-support.js';
import { testDevnet } from './indexer-support.js';

/**
 * The indexer's database against what the devnet says it produced, over a 100-block mixed run of each VM (300 in the long run)
 * on a rollup alone (`equality-support.ts` says what is compared and how).
 */

/** `EQUALITY_HEIGHT=300 npx vitest run test/indexer-equality.test.ts` for the long run. */
const HEIGHT = Number(process.env.EQUALITY_HEIGHT ?? 100);

describe.each(['evm', 'move', 'wasm'] as VmType[])('the database equals the devnet (%s)', (vm) => {
  const testDb = useTestDb('pglite');
  let devnet: Devnet;
  let indexed: IndexedChain;

  beforeAll(async () => {
    devnet = await testDevnet({ seed: `equality-${vm}`, vms: [vm], accounts: 6, txsPerBlock: 8 });
    await devnet.fastForward(HEIGHT);
    indexed = await indexChain(devnet.chains[0]!, HEIGHT, await testDb.fresh());
  }, 90_000);

  afterAll(() => devnet?.close());

  itEqualsTheDevnet(() => indexed, { txs: HEIGHT * 4, evmReceipts: HEIGHT, nfts: 10 });
});
