import { describe, expect, it } from 'vitest';
import { testBackends, useTestDb } from '../test-support/backends.js';
import { readRecordBatch, readSequenceBatch, recordBatchSql, sequenceBatchSql } from './record-batch.js';

const backends = await testBackends();

describe.each(backends)('a record batch on %s', (backend) => {
  const testDb = useTestDb(backend);

  it('gives back every record as stored, with its sequence, in the order asked', async () => {
    const db = await testDb.fresh({ migrate: false });
    // Every byte value; an empty value; one long enough for PostgreSQL's base64 to break many lines;
    // sequences past 2^32 and 2^48.
    const stored = [
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
      Buffer.alloc(0),
      Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251)),
      Buffer.from([2, 0, 255]),
    ];
    const sequences = [1, 2 ** 32 + 5, 2 ** 48 + 3, 77];
    await db.query('CREATE TABLE batch_source (sequence int8 PRIMARY KEY, record bytea NOT NULL)');
    for (const [i, record] of stored.entries())
      await db.query('INSERT INTO batch_source VALUES ($1, $2)', [sequences[i], record]);
    const [row] = await db.query<{ batch: string | null }>(
      `SELECT ${recordBatchSql('FROM batch_source t', 't.sequence DESC')} AS batch`,
    );
    const order = [...sequences.keys()].sort((a, b) => sequences[b]! - sequences[a]!);
    expect(readRecordBatch(row!.batch)).toEqual(
      order.map((i) => ({ sequence: sequences[i], stored: stored[i] })),
    );
    const [none] = await db.query<{ batch: string | null }>(
      `SELECT ${recordBatchSql('FROM batch_source t WHERE false', 't.sequence')} AS batch`,
    );
    expect(none!.batch).toBeNull();
    expect(readRecordBatch(none!.batch)).toEqual([]);
    const [keys] = await db.query<{ batch: string | null }>(
      `SELECT ${sequenceBatchSql('FROM batch_source t', 't.sequence ASC')} AS batch`,
    );
    expect(readSequenceBatch(keys!.batch)).toEqual([...sequences].sort((a, b) => a - b));
    expect(readSequenceBatch(null)).toEqual([]);
  });
});

describe('a record batch cut short', () => {
  const head = (sequence: number, length: number) => {
    const out = Buffer.alloc(12);
    out.writeUInt32BE(Math.floor(sequence / 2 ** 32), 0);
    out.writeUInt32BE(sequence % 2 ** 32, 4);
    out.writeUInt32BE(length, 8);
    return out;
  };

  it('is an error naming where it ends, never a shorter record', () => {
    const whole = Buffer.concat([head(9, 3), Buffer.from('abc'), head(10, 2), Buffer.from('de')]);
    expect(readRecordBatch(whole.toString('base64')).map((r) => r.stored.toString())).toEqual(['abc', 'de']);
    expect(() => readRecordBatch(whole.subarray(0, whole.length - 1).toString('base64'))).toThrow(
      'a record batch ends within record 10',
    );
    expect(() => readRecordBatch(whole.subarray(0, 20).toString('base64'))).toThrow(
      "a record batch ends within a record's head at byte 15",
    );
    expect(() => readSequenceBatch(Buffer.alloc(12).toString('base64'))).toThrow(
      'a sequence batch of 12 bytes is cut short',
    );
  });
});
