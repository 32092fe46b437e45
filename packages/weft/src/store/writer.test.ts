import { describe, expect, it } from 'vitest';
import { checkCounters } from './counter-check.js';
import type { Db } from './db.js';
import { digest } from './digest.js';
import { listInternalTxs } from './read/internal-txs.js';
import { decodeRecord } from './record-codec.js';
import type { IndexedBlock, IndexedInternalTx } from './records.js';
import { testBackends, useTestDb } from './test-support/backends.js';
import { address, EVM_CHAIN, makeBlock, sha256, syntheticChain } from './test-support/chain.js';
import { CheckpointError, createBlockWriter } from './writer.js';

const backends = await testBackends();

const chain = syntheticChain({
  blocks: 30,
  txsPerBlock: 6,
  accountsPerTx: 3,
  accounts: 40,
  seed: 11,
  evm: true,
  nfts: true,
});

async function writeInBatches(db: Db, blocks: IndexedBlock[], sizes: number[]): Promise<void> {
  let writer = createBlockWriter(db, EVM_CHAIN);
  let at = 0;
  for (const size of sizes) {
    await writer.writeBlocks(blocks.slice(at, at + size));
    at += size;
    // A new writer is what a restarted process gets: empty caches, state from the database.
    if (size % 2 === 1) writer = createBlockWriter(db, EVM_CHAIN);
  }
  expect(at).toBe(blocks.length);
}

const count = async (db: Db, sql: string) => Number((await db.query<{ n: string }>(sql))[0]!.n);

describe.each(backends)('block writer on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('writes blocks, txs and edges, and keeps every counter equal to a recount', async () => {
    const db = await testDb.fresh();
    await writeInBatches(db, chain, [7, 7, 7, 9]);
    expect(await checkCounters(db)).toEqual([]);
    const txs = chain.reduce((n, b) => n + b.txs.length, 0);
    expect(await count(db, `SELECT n FROM counter WHERE name = 'tx'`)).toBe(txs);
    expect(await count(db, 'SELECT count(*) AS n FROM tx')).toBe(txs);
    expect(await count(db, `SELECT n FROM counter WHERE name = 'evm_tx'`)).toBe(txs);
    expect(await count(db, `SELECT n FROM counter WHERE name = 'block'`)).toBe(30);
    // An account's totals are the sums over its msg-type sets.
    const [signer] = chain[0]!.txs.map((t) => t.signer);
    const [stat] = await db.query<{ txs: string; signed: string }>(
      `SELECT sum(s.txs) AS txs, sum(s.signed_txs) AS signed FROM account_msg_set s JOIN account a ON a.id = s.account_id
       WHERE a.address = $1`,
      [signer],
    );
    const touching = chain
      .flatMap((b) => b.txs)
      .filter((t) => t.accounts.some((a) => Buffer.from(a.address).equals(Buffer.from(signer!))));
    const signed = chain
      .flatMap((b) => b.txs)
      .filter((t) => Buffer.from(t.signer).equals(Buffer.from(signer!)));
    expect(Number(stat!.txs)).toBe(touching.length);
    expect(Number(stat!.signed)).toBe(signed.length);
    const writer = createBlockWriter(db, EVM_CHAIN);
    expect(await writer.progress()).toEqual({ height: 30, internalTxHeight: 0, richListHeight: 0 });
    expect(await writer.lastBlock()).toEqual({
      height: 30,
      hash: Buffer.from(chain[29]!.hash),
      timestamp: expect.stringMatching(/^2025-08-06T08:00:30\.\d+Z$/),
    });
  });

  it('stores tx records verbatim and finds txs by hash, height, account and msg-type set', async () => {
    const db = await testDb.fresh();
    await writeInBatches(db, chain.slice(0, 5), [5]);
    const tx = chain[2]!.txs[1]!;
    const [row] = await db.query<{ record: Uint8Array; height: string; types: string[] }>(
      `SELECT t.record, t.height, array(SELECT m.name FROM msg_type m WHERE m.id = ANY(s.type_ids) ORDER BY m.name) AS types
       FROM tx t JOIN msg_set s ON s.id = t.msg_set_id WHERE t.hash = $1`,
      [tx.hash],
    );
    expect(decodeRecord(row!.record)).toBe(JSON.stringify(tx.record));
    expect(row!.height).toBe('3');
    expect(row!.types).toEqual([...new Set(tx.msgTypes)].sort());
  });

  it('gives the same database for any batching, restart included (digest)', async () => {
    const digests = [];
    for (const sizes of [[30], Array(30).fill(1), [3, 7, 1, 19]]) {
      const db = await testDb.fresh();
      await writeInBatches(db, chain, sizes);
      digests.push(await digest(db));
    }
    expect(Object.keys(digests[0]!)).toContain('tx_account_pack');
    expect(digests[1]).toEqual(digests[0]);
    expect(digests[2]).toEqual(digests[0]);
  });

  it('refuses heights at or below the checkpoint and batches with gaps, changing nothing', async () => {
    const db = await testDb.fresh();
    const writer = createBlockWriter(db, EVM_CHAIN);
    await writer.writeBlocks(chain.slice(0, 5));
    const before = await digest(db);
    const refused = await writer.writeBlocks(chain.slice(4, 6)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(CheckpointError);
    expect(refused).toMatchObject({ checkpoint: 5, message: expect.stringContaining('resumes at 6') });
    await expect(writer.writeBlocks([chain[5]!, chain[7]!])).rejects.toThrow(/consecutive/);
    expect(await digest(db)).toEqual(before);
    await writer.writeBlocks(chain.slice(5, 6));
    expect(await writer.progress()).toMatchObject({ height: 6 });
  });

  it('leaves nothing of a failed batch behind, in the database or its caches', async () => {
    const db = await testDb.fresh();
    const writer = createBlockWriter(db, EVM_CHAIN);
    await writer.writeBlocks(chain.slice(0, 3));
    const poisoned = structuredClone(chain.slice(3, 6));
    poisoned[2]!.txs[0]!.record = { unserializable: 1n };
    await expect(writer.writeBlocks(poisoned)).rejects.toThrow();
    await writer.writeBlocks(chain.slice(3, 30));

    const clean = await testDb.fresh();
    await writeInBatches(clean, chain, [30]);
    expect(await digest(db)).toEqual(await digest(clean));
  });

  it('measures block_time from the previous block, across batches and restarts; 0 after a gap', async () => {
    const db = await testDb.fresh();
    await createBlockWriter(db, EVM_CHAIN).writeBlocks([makeBlock(5), makeBlock(6)]);
    await createBlockWriter(db, EVM_CHAIN).writeBlocks([makeBlock(7)]);
    await createBlockWriter(db, EVM_CHAIN).writeBlocks([makeBlock(10), makeBlock(11)]);
    const rows = await db.query<{ height: string; block_time: string }>(
      'SELECT height, block_time FROM block ORDER BY height',
    );
    expect(rows.map((r) => [Number(r.height), Number(r.block_time)])).toEqual([
      [5, 0],
      [6, 1000],
      [7, 1000],
      [10, 0],
      [11, 1000],
    ]);
  });

  it('refuses to write another chain into a schema', async () => {
    const db = await testDb.fresh();
    await createBlockWriter(db, EVM_CHAIN).writeBlocks([makeBlock(1)]);
    const other = createBlockWriter(db, { ...EVM_CHAIN, chainId: 'minievm-2' });
    await expect(other.writeBlocks([makeBlock(2)])).rejects.toMatchObject({
      code: 'WEFT_ERR_STORE_CHAIN_MISMATCH',
    });
  });

  it('writes internal txs with their own sequence, edges, counters and checkpoint', async () => {
    const db = await testDb.fresh();
    const writer = createBlockWriter(db, EVM_CHAIN);
    await writer.writeBlocks(chain.slice(0, 4));
    const call = (
      height: number,
      index: number,
      parentIndex: number,
      to: Uint8Array | null,
    ): IndexedInternalTx => ({
      txHash: chain[height - 1]!.evmTxs[0]!.hash,
      index,
      parentIndex,
      type: to ? 'CALL' : 'CREATE',
      from: chain[height - 1]!.evmTxs[0]!.signer,
      to,
      input: new Uint8Array([0xa9, 0x05]),
      output: new Uint8Array(),
      value: new Uint8Array([0]),
      gas: new Uint8Array([0x52, 0x08]),
      gasUsed: new Uint8Array([0x52, 0x08]),
    });
    await writer.writeInternalTxs([
      { height: 1, calls: [call(1, 0, -1, address(900)), call(1, 1, 0, null)] },
      { height: 2, calls: [] },
      { height: 3, calls: [call(3, 0, -1, chain[2]!.evmTxs[0]!.signer)] },
    ]);
    expect(await writer.progress()).toMatchObject({ height: 4, internalTxHeight: 3 });
    expect(await checkCounters(db)).toEqual([]);
    const { rows } = await listInternalTxs(db, {
      offset: 0,
      limit: 10,
      descending: false,
      countTotal: false,
    });
    expect(rows.map((r) => [r.sequence, r.height, r.index, r.to === null])).toEqual([
      [1, 1, 0, false],
      [2, 1, 1, true],
      [3, 3, 0, false],
    ]);
    // A call from an account to itself is one edge.
    expect(await count(db, 'SELECT count(*) AS n FROM evm_internal_tx_account WHERE sequence = 3')).toBe(1);
    await expect(writer.writeInternalTxs([{ height: 3, calls: [] }])).rejects.toBeInstanceOf(CheckpointError);
    await expect(writer.writeInternalTxs([{ height: 5, calls: [] }])).rejects.toThrow(
      /ahead of the indexed blocks/,
    );
    const stray = { ...call(4, 0, -1, null), txHash: sha256('not a tx') };
    await expect(writer.writeInternalTxs([{ height: 4, calls: [stray] }])).rejects.toMatchObject({
      code: 'WEFT_ERR_STORE_UNKNOWN_EVM_TX',
    });
  });
});

describe.each(backends)('accounts the extensions name, on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('get their ids with their block, wherever the batch ends and whichever writer commits first', async () => {
    const frameOnly = address(700);
    const blocks = [
      makeBlock(1, { evmTxs: [{ from: address(1) }] }),
      { ...makeBlock(2, { txs: [{ signer: address(2) }] }), extensionAccounts: [frameOnly, address(1)] },
      makeBlock(3, { txs: [{ signer: address(3) }] }),
    ];
    const idsAfter = async (batches: number[][]) => {
      const db = await testDb.fresh();
      const writer = createBlockWriter(db, EVM_CHAIN);
      for (const batch of batches) await writer.writeBlocks(batch.map((h) => blocks[h - 1]!));
      const rows = await db.query<{ id: string; address: Buffer }>(
        'SELECT id, address FROM account ORDER BY id',
      );
      return rows.map((r) => `${r.id}:${r.address.toString('hex')}`);
    };
    const whole = await idsAfter([[1, 2, 3]]);
    expect(await idsAfter([[1], [2], [3]])).toEqual(whole);
    // The frame's account comes after block 2's own and before block 3's.
    const hex = (a: Uint8Array) => Buffer.from(a).toString('hex');
    const order = whole.map((row) => row.split(':')[1]);
    expect(order.indexOf(hex(frameOnly))).toBe(order.indexOf(hex(address(2))) + 1);
    expect(order.indexOf(hex(address(3)))).toBe(order.indexOf(hex(frameOnly)) + 1);
  });
});

describe.skipIf(backends.length < 2)('PGlite and PostgreSQL', () => {
  const lite = useTestDb('pglite');
  const server = useTestDb('postgres');

  it('hold the same content for the same chain', async () => {
    const a = await lite.fresh();
    const b = await server.fresh();
    await writeInBatches(a, chain, [30]);
    await writeInBatches(b, chain, [10, 10, 10]);
    expect(await digest(a)).toEqual(await digest(b));
  });
});
