import { describe, expect, it } from 'vitest';
import { checkCounters } from './counter-check.js';
import type { Db } from './db.js';
import { testBackends, useTestDb } from './test-support/backends.js';
import { address, EVM_CHAIN, makeBlock } from './test-support/chain.js';
import { CheckpointError, createBlockWriter } from './writer.js';

const backends = await testBackends();
const TOKEN = '0xe1ff7038eaaaf027031688e1535a055b2bac2546';
const [a, b, c] = [address(1), address(2), address(3)];

const holders = (db: Db, denom: string) =>
  db.query<{ account: Buffer; amount: string }>(
    `SELECT a.address AS account, r.amount FROM rich_list r JOIN denom d ON d.id = r.denom_id
     JOIN account a ON a.id = r.account_id WHERE d.name = $1 ORDER BY r.amount DESC, r.account_id`,
    [denom],
  );
const holderCount = async (db: Db, denom: string) =>
  Number(
    (await db.query<{ holders: string }>('SELECT holders FROM denom WHERE name = $1', [denom]))[0]?.holders ??
      0,
  );

describe.each(backends)('rich list on %s', (backend) => {
  const testDb = useTestDb(backend);

  async function initialized() {
    const db = await testDb.fresh();
    const writer = createBlockWriter(db, EVM_CHAIN);
    await writer.writeBlocks([makeBlock(1, { txs: [{ signer: a }] })]);
    await writer.richList.initialize(10, [
      { account: a, denom: TOKEN, amount: 100n },
      { account: b, denom: TOKEN, amount: 50n },
      { account: c, denom: 'uinit', amount: 7n },
      { account: c, denom: TOKEN, amount: 0n },
    ]);
    return { db, writer };
  }

  it('starts from a snapshot and keeps a holder count per denom', async () => {
    const { db, writer } = await initialized();
    expect((await holders(db, TOKEN)).map((h) => h.amount)).toEqual(['100', '50']);
    expect(await holderCount(db, TOKEN)).toBe(2);
    expect(await holderCount(db, 'uinit')).toBe(1);
    expect(await writer.progress()).toMatchObject({ height: 1, richListHeight: 10 });
    expect(await checkCounters(db)).toEqual([]);
    // A second snapshot replaces the first entirely.
    await writer.richList.initialize(20, [{ account: b, denom: TOKEN, amount: 5n }]);
    expect((await holders(db, TOKEN)).map((h) => h.amount)).toEqual(['5']);
    expect(await holderCount(db, 'uinit')).toBe(0);
    expect(await checkCounters(db)).toEqual([]);
  });

  it('applies deltas, drops balances that reach zero, and adds new holders', async () => {
    const { db, writer } = await initialized();
    const applied = await writer.richList.apply(11, [
      { account: a, denom: TOKEN, delta: -30n },
      { account: b, denom: TOKEN, delta: -50n },
      { account: c, denom: TOKEN, delta: 40n },
      { account: c, denom: TOKEN, delta: 40n },
    ]);
    expect(applied).toEqual({ negativeDenoms: [], negative: [], newDenoms: [] });
    expect(
      (await holders(db, TOKEN)).map((h) => [Buffer.from(h.account).equals(Buffer.from(c)), h.amount]),
    ).toEqual([
      [true, '80'],
      [false, '70'],
    ]);
    expect(await holderCount(db, TOKEN)).toBe(2);
    expect(await writer.progress()).toMatchObject({ richListHeight: 11 });
    expect(await checkCounters(db)).toEqual([]);
  });

  it('names the denoms it never held before, once', async () => {
    const { writer } = await initialized();
    const other = '0x00000000000000000000000000000000000000aa';
    const first = await writer.richList.apply(11, [
      { account: a, denom: other, delta: 3n },
      { account: a, denom: TOKEN, delta: 1n },
    ]);
    expect(first.newDenoms).toEqual([other]);
    const again = await writer.richList.apply(12, [{ account: b, denom: other, delta: 2n }]);
    expect(again.newDenoms).toEqual([]);
  });

  it('reports balances a delta would take below zero, leaves them, and lets set repair them', async () => {
    const { db, writer } = await initialized();
    const applied = await writer.richList.apply(11, [
      { account: a, denom: TOKEN, delta: 5n },
      { account: b, denom: TOKEN, delta: -80n },
      { account: address(9), denom: 'uinit', delta: -1n },
    ]);
    expect(applied.negativeDenoms).toEqual([TOKEN, 'uinit']);
    expect(applied.negative).toEqual([
      { account: b, denom: TOKEN, amount: -30n },
      { account: address(9), denom: 'uinit', amount: -1n },
    ]);
    expect((await holders(db, TOKEN)).map((h) => h.amount)).toEqual(['105', '50']);
    await writer.richList.set(11, [
      { account: a, denom: TOKEN, amount: 105n },
      { account: b, denom: TOKEN, amount: 0n },
      { account: c, denom: TOKEN, amount: 12n },
    ]);
    expect((await holders(db, TOKEN)).map((h) => h.amount)).toEqual(['105', '12']);
    expect(await checkCounters(db)).toEqual([]);
  });

  it('refuses to apply before a snapshot or at an applied height', async () => {
    const db = await testDb.fresh();
    const writer = createBlockWriter(db, EVM_CHAIN);
    await expect(writer.richList.apply(1, [])).rejects.toBeInstanceOf(CheckpointError);
    const { writer: ready } = await initialized();
    await expect(ready.richList.apply(10, [])).rejects.toBeInstanceOf(CheckpointError);
    await expect(ready.richList.set(9, [])).rejects.toBeInstanceOf(CheckpointError);
    await ready.richList.set(10, []);
  });
});
