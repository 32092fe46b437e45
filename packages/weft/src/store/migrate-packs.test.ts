import { describe, expect, it } from 'vitest';
import { checkCounters } from './counter-check.js';
import type { Db } from './db.js';
import { digest } from './digest.js';
import { PACK_SIZE } from './edge-pack.js';
import type { InternalTxHeight } from './internal-tx-write.js';
import { migrate } from './migrate.js';
import { testBackends, useTestDb } from './test-support/backends.js';
import { address, EVM_CHAIN, syntheticChain } from './test-support/chain.js';
import { backToRows } from './test-support/layouts.js';
import { createBlockWriter } from './writer.js';

const backends = await testBackends();
// Few accounts, so each is in several packs' worth of txs.
const chain = syntheticChain({
  blocks: 40,
  txsPerBlock: 6,
  accountsPerTx: 3,
  accounts: 4,
  seed: 9,
  evm: true,
});
const calls: InternalTxHeight[] = chain.map((block) => ({
  height: block.height,
  calls: block.evmTxs.flatMap((t, i) =>
    [0, 1].map((index) => ({
      txHash: t.hash,
      index,
      parentIndex: index - 1,
      type: 'CALL',
      from: t.signer,
      to: address(1 + ((block.height + i + index) % 4)),
      input: new Uint8Array([index]),
      output: new Uint8Array(),
      value: new Uint8Array([0]),
      gas: new Uint8Array([1]),
      gasUsed: new Uint8Array([1]),
    })),
  ),
}));

const written = async (db: Db) => {
  const writer = createBlockWriter(db, EVM_CHAIN);
  await writer.writeBlocks(chain);
  await writer.writeInternalTxs(calls);
};

describe.each(backends)('migration 0004 (packed account edges and call frames) on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('packs the edges and frames of a store written before it in place, as the writer packs them', async () => {
    const packedByWriter = await testDb.fresh();
    await written(packedByWriter);
    const converted = await testDb.fresh();
    await written(converted);
    await backToRows(converted);
    const edges = await converted.query<{ n: string }>(
      'SELECT count(*) AS n FROM tx_account WHERE account_id = 1',
    );
    expect(Number(edges[0]!.n)).toBeGreaterThan(2 * PACK_SIZE);
    const rows = await converted.query<{ n: string }>('SELECT count(*) AS n FROM evm_internal_tx');
    expect(Number(rows[0]!.n)).toBe(calls.reduce((n, h) => n + h.calls.length, 0));

    expect(await migrate(converted)).toEqual({ applied: [4, 5] });
    expect(await digest(converted)).toEqual(await digest(packedByWriter));
    expect(await checkCounters(converted)).toEqual([]);
    const packs = await converted.query<{ n: string }>(
      'SELECT count(*) AS n FROM tx_account_pack WHERE account_id = 1',
    );
    expect(Number(packs[0]!.n)).toBeGreaterThan(2);

    // The converted store keeps being written to like any other.
    const more = syntheticChain({
      blocks: 44,
      txsPerBlock: 6,
      accountsPerTx: 3,
      accounts: 4,
      seed: 9,
      evm: true,
    });
    await createBlockWriter(converted, EVM_CHAIN).writeBlocks(more.slice(40));
    await createBlockWriter(packedByWriter, EVM_CHAIN).writeBlocks(more.slice(40));
    expect(await digest(converted)).toEqual(await digest(packedByWriter));
  });
});
