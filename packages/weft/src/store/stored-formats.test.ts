import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { checkCounters } from './counter-check.js';
import type { Db } from './db.js';
import { digest } from './digest.js';
import { loadMigrations, migrate } from './migrate.js';
import { storeAnswers } from './test-support/api-answers.js';
import { testBackends, useTestDb } from './test-support/backends.js';
import { EVM_CHAIN } from './test-support/chain.js';
import {
  callsOf,
  fixtureChain,
  fixtureChainNext,
  writeFixtureStore,
} from './test-support/stored-formats/fixture-store.js';
import { createBlockWriter } from './writer.js';

const backends = await testBackends();
const FIXTURES = new URL('./test-support/stored-formats/', import.meta.url);
const FIXTURE_NAME = /^schema-(\d+)-[a-z0-9-]+\.sql$/;
const fixtures = (await readdir(FIXTURES)).filter((f) => FIXTURE_NAME.test(f)).sort();
const shipped = await loadMigrations();

/**
 * The tables a migrated fixture holds in other bytes than a store written now, by design: values of an
 * earlier format that stay as they are, read by the codec of their format.
 */
const KEPT_AS_WRITTEN: Record<string, string[]> = {
  // Records of format 1 are read as they are, never rewritten.
  'schema-3-record-format-1.sql': ['evm_tx', 'tx'],
};

/** Two more blocks and their frames: the migrated store keeps being written to, its packs appended to. */
const more = async (db: Db) => {
  const writer = createBlockWriter(db, EVM_CHAIN);
  await writer.writeBlocks(fixtureChainNext);
  await writer.writeInternalTxs(callsOf(fixtureChainNext));
};

describe.each(backends)('stores written in each earlier format, on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('has a store of every schema version, this one too (a later format makes it an earlier one)', () => {
    const versions = new Set(fixtures.map((f) => Number(FIXTURE_NAME.exec(f)![1])));
    expect([...versions].sort((a, b) => a - b)).toEqual(shipped.map((m) => m.version));
  });

  it.each(fixtures)('%s, migrated, answers and digests as a store written now', async (file) => {
    const version = Number(FIXTURE_NAME.exec(file)![1]);
    const old = await testDb.fresh({ migrate: false });
    await migrate(old, shipped.slice(0, version));
    await old.exec(await readFile(new URL(file, FIXTURES), 'utf8'));
    expect(await migrate(old)).toEqual({ applied: shipped.slice(version).map((m) => m.version) });

    const now = await testDb.fresh();
    await writeFixtureStore(now);
    const answers = await storeAnswers(old, fixtureChain);
    expect(answers).toEqual(await storeAnswers(now, fixtureChain));
    expect(answers.filter((a) => !/ 200 \{"(txs|tx|evm_txs|evm_tx|internal_txs)":/.test(a))).toEqual([]);
    // A few accounts signed no MsgSend, or are only named by NFT changes; every other answer holds rows.
    expect(answers.filter((a) => a.includes('":[],')).length).toBeLessThan(answers.length / 10);
    const kept = KEPT_AS_WRITTEN[file] ?? [];
    const differing = async () => {
      const [was, is] = [await digest(old), await digest(now)];
      return Object.keys(is).filter((table) => was[table] !== is[table]);
    };
    expect(await differing()).toEqual(kept);
    expect(await checkCounters(old)).toEqual([]);

    await more(old);
    await more(now);
    expect(await differing()).toEqual(kept);
    expect(await checkCounters(old)).toEqual([]);
  });

  it('reads records of format 1 as they are: the migrations keep them', async () => {
    const old = await testDb.fresh({ migrate: false });
    await migrate(old, shipped.slice(0, 3));
    await old.exec(await readFile(new URL('schema-3-record-format-1.sql', FIXTURES), 'utf8'));
    await migrate(old);
    for (const table of ['tx', 'evm_tx']) {
      const formats = await old.query<{ format: number }>(
        `SELECT DISTINCT get_byte(record, 0) AS format FROM ${table}`,
      );
      expect(formats).toEqual([{ format: 1 }]);
    }
  });

  it('names each value’s format: records and call frames in their first byte, edge packs in a column', async () => {
    const db = await testDb.fresh();
    await writeFixtureStore(db);
    const bytes = await db.query<{ format: number }>(
      `SELECT DISTINCT get_byte(record, 0) AS format FROM tx
       UNION SELECT get_byte(record, 0) FROM evm_tx UNION SELECT get_byte(frames, 0) FROM evm_internal_tx_pack`,
    );
    expect(bytes).toEqual([{ format: 2 }]);
    for (const table of [
      'tx_account_pack',
      'tx_signer_pack',
      'evm_tx_account_pack',
      'evm_tx_signer_pack',
      'evm_internal_tx_account_pack',
    ]) {
      expect(await db.query(`SELECT DISTINCT format FROM ${table}`)).toEqual([{ format: 1 }]);
      // SQL that reads format 1 only never meets another.
      await expect(
        db.query(
          `UPDATE ${table} SET format = 2 WHERE first_sequence = (SELECT min(first_sequence) FROM ${table})`,
        ),
      ).rejects.toThrow(/format/);
    }
  });
});
